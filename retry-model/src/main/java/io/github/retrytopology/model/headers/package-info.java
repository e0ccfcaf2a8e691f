/**
 * The headers a message carries, by name and value type: this project's, the broker's, and the fields and reasons
 * of x-death.
 */
package io.github.retrytopology.model.headers;
