/**
 * The on-call console: a page and a JSON API on the JDK's HTTP server, whose four threads answer requests through
 * one route table after {@code RequestGuard}'s checks; each replay and
 * purge runs on a job thread of its own ({@code Jobs}), in the name of the request's operator.
 */
@NullMarked
package io.github.retrytopology.operations.console;

import org.jspecify.annotations.NullMarked;
