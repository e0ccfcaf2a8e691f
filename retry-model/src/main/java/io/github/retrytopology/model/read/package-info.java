/** Reading retry.yml's YAML into a draft that keeps each value's position; nothing here leaves the package as YAML. */
package io.github.retrytopology.model.read;
