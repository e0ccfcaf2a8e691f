package com.acme.orders;

import com.acme.orders.retry.EmailHandler;
import com.acme.orders.retry.RetryTopology;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.Routes;

/** Implements the generated handler, as a user would. */
public final class Email implements EmailHandler {

    static final String QUEUE = RetryTopology.Email.QUEUE;

    @Override
    public void orderCreated(DeliveryContext context) {
    }

    @Override
    public void orderPaid(Payment payment, DeliveryContext context) {
    }

    static Routes routes() {
        return EmailHandler.routes(new Email());
    }
}
