/** The runtime's root: the exception every runtime failure extends. */
package io.github.retrytopology.runtime;
