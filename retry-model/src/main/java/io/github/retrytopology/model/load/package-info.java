/** Loading a retry.yml in one call: read, validate, model; the entry point for tools and tests. */
package io.github.retrytopology.model.load;
