package io.github.retrytopology.spring;

/** The payload of order.placed, as JSON in snake case: {@code {"order_id": "o-1", "amount_cents": 1250}}. */
public record OrderPlaced(String orderId, long amountCents) {
}
