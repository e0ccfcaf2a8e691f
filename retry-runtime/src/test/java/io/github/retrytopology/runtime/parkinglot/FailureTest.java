package io.github.retrytopology.runtime.parkinglot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class FailureTest {

    static Stream<Arguments> messages() {
        return Stream.of(
                Arguments.of("numbers", "timeout after 500 ms", "timeout after # ms"),
                Arguments.of("decimals and addresses", "took 1.5s calling 10.0.0.7:8080", "took #s calling #:#"),
                Arguments.of("a uuid is one mask", "order 3f2b8c1e-9a4d-4e2b-8f1a-0c9d7e6b5a41 not found",
                        "order # not found"),
                Arguments.of("a uuid without letters is one mask too", "order 31274659-0835-4126-9770-584213906517 "
                        + "not found", "order # not found"),
                Arguments.of("a date is one mask", "no rate for 2026-11-26", "no rate for #"),
                Arguments.of("numbers joined by underscores", "shard_3_17 down", "shard_# down"),
                Arguments.of("a minus sign stays", "balance -5 below zero", "balance -# below zero"),
                Arguments.of("a hexadecimal id", "object 5f9c2a7be13d not found", "object # not found"),
                Arguments.of("a token", "session tok_9fQ2xLr8ZkP3mN7vB1cY expired", "session # expired"),
                Arguments.of("digits inside a word", "node7 refused order-12345", "node# refused order-#"),
                Arguments.of("a hexadecimal id after a dash", "order-5f9c2a7be13d gone", "order-# gone"),
                Arguments.of("thousands", "1,500 items over 2.5 MB", "# items over # MB"),
                Arguments.of("letters beyond ASCII", "Zähler 5 überschritten", "Zähler # überschritten"),
                Arguments.of("a sentence's full stop stays", "failed 3 times.", "failed # times."),
                Arguments.of("words stay", "connection reset by peer", "connection reset by peer"),
                Arguments.of("a hexadecimal-looking word without digits stays", "deadbeefcafe", "deadbeefcafe"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("messages")
    void masksNumbersAndIds(String name, String message, String masked) {
        assertThat(Failure.mask(message)).isEqualTo(masked);
    }

    @Test
    void aKeyIsTheSameForTheSameFailureAndDiffersForAnother() {
        Failure timeout = new Failure(Optional.of("java.io.IOException"), Optional.of("timeout"), Optional.of("x"));

        assertThat(timeout.key()).hasSize(16).isEqualTo(new Failure(Optional.of("java.io.IOException"),
                Optional.of("timeout"), Optional.of("x")).key());
        assertThat(timeout.key())
                .isNotEqualTo(new Failure(Optional.of("java.io.IOException"), Optional.of("timeout"), Optional.empty()).key())
                .isNotEqualTo(new Failure(Optional.of("java.io.IOExceptiont"), Optional.of("imeout"), Optional.of("x")).key())
                .isNotEqualTo(new Failure(Optional.of("java.io.IOException"), Optional.of(""), Optional.of("x")).key());
    }
}
