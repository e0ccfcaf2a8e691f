/**
 * What the project's own modules share of the model and no one else should use: a policy in words for pictures and
 * documentation, the rules that make a policy impossible, and the index that finds a routing key's route. Exported
 * only to the runtime and the operations.
 */
@NullMarked
package io.github.retrytopology.model.internal;

import org.jspecify.annotations.NullMarked;
