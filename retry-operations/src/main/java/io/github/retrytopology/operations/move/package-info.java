/**
 * Moving the messages of one queue to another without losing one: {@link
 * io.github.retrytopology.operations.move.MessageMover}, which runs on the caller's thread; the client's threads only
 * hand it what arrives.
 */
@NullMarked
package io.github.retrytopology.operations.move;

import org.jspecify.annotations.NullMarked;
