/**
 * What a message carries besides its body, in no protocol's terms ({@code MessageProperties}), and the retry headers
 * read from it ({@code RetryHeaders}): read on arrival, on the handler's thread, or from the parking lot.
 */
@NullMarked
package io.github.retrytopology.runtime.headers;

import org.jspecify.annotations.NullMarked;
