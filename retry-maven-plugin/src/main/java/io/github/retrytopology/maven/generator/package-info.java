/** Generation with FreeMarker: handler interfaces, definitions and the picture, every name computed first. */
package io.github.retrytopology.maven.generator;
