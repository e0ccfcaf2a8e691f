/** The retry command line: it parses arguments and calls the library, and decides nothing itself. */
package io.github.retrytopology.operations.cli;
