/** Writing generated files incrementally: unchanged files are not touched, and nothing is half-written. */
package io.github.retrytopology.maven.output;
