/**
 * The headers a message carries, by name and value type: this project's, the broker's, and the fields and reasons
 * of x-death.
 */
@NullMarked
package io.github.retrytopology.model.headers;

import org.jspecify.annotations.NullMarked;
