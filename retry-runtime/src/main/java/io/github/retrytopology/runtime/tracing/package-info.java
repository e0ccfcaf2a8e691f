/** Spans around each delivery's handling, through OpenTelemetry or Micrometer's Observation API, on the handler's thread. */
@NullMarked
package io.github.retrytopology.runtime.tracing;

import org.jspecify.annotations.NullMarked;
