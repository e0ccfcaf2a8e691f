package io.github.retrytopology.operations.cli;

import picocli.CommandLine.Option;

/** {@code --as}: who replays, written into each replayed message with the time; {@code replay} and {@code console}. */
final class OperatorOption {

    @Option(names = "--as", paramLabel = "NAME", defaultValue = "${sys:user.name}",
            description = "Who replays, written into each replayed message with the time (default: the user, "
                    + "${DEFAULT-VALUE}).")
    String name;
}
