package io.github.retrytopology.example;

/**
 * The JSON body of the order events in the example.
 *
 * @param orderId the order
 * @param status what happened to it
 */
public record OrderEvent(String orderId, String status) {
}
