/** The retry headers a message carries: read on arrival and written on a retry or a park, on the handler's thread. */
@NullMarked
package io.github.retrytopology.runtime.headers;

import org.jspecify.annotations.NullMarked;
