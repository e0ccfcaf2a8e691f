package io.github.retrytopology.it;

/**
 * The payload of {@code payment.*.received} in the scenarios, sent as JSON.
 *
 * @param order the order paid for
 * @param cents how much
 */
public record Payment(String order, long cents) {
}
