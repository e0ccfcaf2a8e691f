/** Payload codecs: the bytes of a delivery to the handler's payload type, on the handler's thread. */
package io.github.retrytopology.runtime.codec;
