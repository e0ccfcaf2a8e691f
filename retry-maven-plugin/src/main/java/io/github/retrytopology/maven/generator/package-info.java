/** Generation with FreeMarker: handler interfaces, definitions and the picture, every name computed before rendering. */
package io.github.retrytopology.maven.generator;
