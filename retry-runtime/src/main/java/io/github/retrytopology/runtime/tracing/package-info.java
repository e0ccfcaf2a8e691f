/** Spans around each delivery's handling, through OpenTelemetry or Micrometer's Observation API, on the handler's thread. */
package io.github.retrytopology.runtime.tracing;
