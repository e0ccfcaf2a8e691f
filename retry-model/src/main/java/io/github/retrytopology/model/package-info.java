/** The validated model of a retry.yml: its services, routes and tiers, and every name derived from them. */
@NullMarked
package io.github.retrytopology.model;

import org.jspecify.annotations.NullMarked;
