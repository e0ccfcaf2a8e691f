/** Metrics of retries, parks and lost consumers through Micrometer, told on the thread of each event. */
@NullMarked
package io.github.retrytopology.runtime.metrics;

import org.jspecify.annotations.NullMarked;
