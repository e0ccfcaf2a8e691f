package io.github.retrytopology.example;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.retrytopology.runtime.codec.JacksonPayloadCodec;
import io.github.retrytopology.runtime.codec.PayloadCodec;
import io.github.retrytopology.runtime.consumer.DeliveryContext;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundled example, end to end: the handlers of the three services of {@code retry.yml}, implemented, and
 * consuming. Import {@code target/classes/io/github/retrytopology/example/definitions.json} into RabbitMQ
 * first, then run it with the AMQP URI of the {@code orders} vhost.
 */
public final class OrderPlatform {

    private static final Logger log = LoggerFactory.getLogger(OrderPlatform.class);

    private OrderPlatform() {
    }

    /** Sends the email of each order event; a failure is retried on the email service's own schedule. */
    static final class Email implements EmailHandler {
        @Override
        public void orderCreated(DeliveryContext context) {
            log.info("Confirming order {} by email (attempt {})", context.messageId().orElse("?"), context.attempt());
        }

        @Override
        public void orderPaid(DeliveryContext context) {
            log.info("Sending the receipt of order {}", context.messageId().orElse("?"));
        }
    }

    /** Opens a ticket for every order event; a malformed event is parked at once as non-retryable. */
    static final class Ticketing implements TicketingHandler {
        @Override
        public void orderEvent(OrderEvent event, DeliveryContext context) {
            if (event.orderId() == null) {
                throw new IllegalArgumentException("an order event without an order id");
            }
            log.info("Ticket for order {}: {}", event.orderId(), event.status());
        }
    }

    /** Books completed and refunded orders. */
    static final class Finance implements FinanceHandler {
        @Override
        public void orderCompleted(OrderEvent event, DeliveryContext context) {
            log.info("Booking order {}", event.orderId());
        }

        @Override
        public void orderRefunded(DeliveryContext context) {
            log.info("Booking the refund of order {}", context.messageId().orElse("?"));
        }
    }

    /** Starts a consumer per service on the connection. */
    public static List<RetryingConsumer> start(Connection connection) throws IOException {
        PayloadCodec json = PayloadCodec.builtIn().or(new JacksonPayloadCodec(new ObjectMapper()));
        return List.of(
                RetryingConsumer.builder(connection, EmailHandler.routes(new Email())).start(),
                RetryingConsumer.builder(connection, TicketingHandler.routes(new Ticketing())).codec(json).start(),
                RetryingConsumer.builder(connection, FinanceHandler.routes(new Finance())).codec(json).start());
    }

    /** Consumes until interrupted; the argument is the AMQP URI, by default the local broker's orders vhost. */
    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(args.length > 0 ? args[0] : "amqp://guest:guest@localhost:5672/" + RetryTopology.VHOST);
        try (Connection connection = factory.newConnection("order-platform")) {
            List<RetryingConsumer> consumers = start(connection);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> consumers.forEach(RetryingConsumer::close)));
            new CountDownLatch(1).await();
        }
    }
}
