/** Metrics of retries, parks and lost consumers through Micrometer, told on the thread of each event. */
package io.github.retrytopology.runtime.metrics;
