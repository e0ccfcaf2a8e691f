/** The on-call console: a small HTTP server over the parking lot and the broker, and its page. */
package io.github.retrytopology.operations.console;
