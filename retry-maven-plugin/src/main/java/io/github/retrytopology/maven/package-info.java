/** The plugin's goals: each maps its parameters into one request and calls the library. */
package io.github.retrytopology.maven;
