/** Payload codecs: the bytes of a delivery to the handler's payload type, on the handler's thread. */
@NullMarked
package io.github.retrytopology.runtime.codec;

import org.jspecify.annotations.NullMarked;
