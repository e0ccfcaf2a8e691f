package io.github.retrytopology.operations.move;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.retrytopology.operations.move.MoveReport.Ending;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One move, from its channels' opening to their closing: all its state belongs to the thread that runs it, which the
 * client's threads reach only through its inbox.
 */
final class Move implements AutoCloseable {

    /** How often, at most, a move that is idle reads the source's count to tell whether it is drained. */
    private static final Duration CHECK_EVERY = Duration.ofMillis(20);

    /** What the client's threads tell the moving thread, in the order they saw it. */
    private sealed interface Event permits Delivered, Confirmed, Returned, CancelledByBroker, CancelOk, Closed {
    }

    private record Delivered(Envelope envelope, AMQP.BasicProperties properties, byte[] body) implements Event {
    }

    private record Confirmed(long sequence, boolean multiple, boolean stored) implements Event {
    }

    private record Returned(int replyCode, String replyText) implements Event {
    }

    private record CancelledByBroker() implements Event {
    }

    private record CancelOk() implements Event {
    }

    private record Closed(boolean consuming, ShutdownSignalException cause) implements Event {
    }

    private final Connection connection;
    private final String source;
    private final Destinations destinations;
    private final String destination;
    private final HeaderRewrite rewrite;
    private final MoveOptions options;
    private final LongSupplier ticker;
    private final BlockingQueue<Event> inbox = new LinkedBlockingQueue<>();
    private final Unsettled unsettled = new Unsettled();

    private @Nullable Channel consuming;
    private @Nullable Channel publishing;
    private @Nullable String consumerTag;
    /** Whether the broker may still deliver to the consumer. */
    private boolean subscribed;
    /** Whether the consumer's cancel-ok is still to come, with the deliveries before it. */
    private boolean cancelling;
    private int prefetch;
    private long received;
    private long moved;
    private long highestTag;
    private long lastPublishedTag;
    /** Whether a copy came back: the broker's confirms of the copies then say nothing of where they are. */
    private boolean returned;
    private @Nullable Ending ending;
    private @Nullable String failure;
    private @Nullable Throwable failureCause;
    private long failedAt;
    private long lastConfirm;
    private long lastDelivery;
    private long lastCheck;

    Move(Connection connection, String source, Destinations destinations, HeaderRewrite rewrite, MoveOptions options,
            LongSupplier ticker) {
        this.connection = connection;
        this.source = source;
        this.destinations = destinations;
        this.destination = destinations.describe();
        this.rewrite = rewrite;
        this.options = options;
        this.ticker = ticker;
    }

    MoveReport run() throws IOException {
        open();
        if (options.limit() == 0) {
            return new MoveReport(source, destination, 0, Ending.LIMIT, consuming.messageCount(source));
        }
        prefetch = (int) Math.min(options.prefetch(), options.limit());
        consuming.basicQos(prefetch);
        DefaultConsumer consumer = new Inbox(consuming);
        // Deliveries to a consumer already cancelled reach the channel's default consumer: they are moved too.
        consuming.setDefaultConsumer(consumer);
        long now = ticker.getAsLong();
        lastDelivery = now;
        lastConfirm = now;
        lastCheck = now - CHECK_EVERY.toNanos();
        consumerTag = consuming.basicConsume(source, false, consumer);
        subscribed = true;
        try {
            while (!finished()) {
                Event event = inbox.poll();
                if (event == null && checkDue()) {
                    checkDrained();
                    continue;
                }
                if (event == null) {
                    event = inbox.poll(CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
                }
                if (event == null) {
                    idle();
                } else {
                    handle(event);
                }
                acknowledgeConfirmed();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("the move was interrupted", e);
            unsettled.refuseAwaiting();
        }
        if (failure != null) {
            settleAfterFailure();
            throw new MoveException("moving messages from " + source + " to " + destination + " stopped after "
                    + moved + ": " + failure + ". Every other message is still in " + source
                    + "; run the move again once that is fixed", moved, failureCause);
        }
        return new MoveReport(source, destination, moved, ending, consuming.messageCount(source));
    }

    /** Opens the two channels, once both queues are found. */
    private void open() throws IOException {
        consuming = connection.createChannel();
        publishing = connection.createChannel();
        if (consuming == null || publishing == null) {
            throw new IOException("the connection has no channel left for a move from " + source);
        }
        try {
            consuming.queueDeclarePassive(source);
        } catch (IOException e) {
            throw new MoveException("there is no queue " + source + " to move messages from", 0, e);
        }
        for (String queue : destinations.queues()) {
            try {
                publishing.queueDeclarePassive(queue);
            } catch (IOException e) {
                throw new MoveException("there is no queue " + queue + " to move the messages of " + source + " to",
                        0, e);
            }
        }
        publishing.confirmSelect();
        publishing.addConfirmListener((sequence, multiple) -> inbox.add(new Confirmed(sequence, multiple, true)),
                (sequence, multiple) -> inbox.add(new Confirmed(sequence, multiple, false)));
        publishing.addReturnListener(message -> inbox.add(new Returned(message.getReplyCode(), message.getReplyText())));
        consuming.addShutdownListener(cause -> closed(true, cause));
        publishing.addShutdownListener(cause -> closed(false, cause));
    }

    private void closed(boolean consumingChannel, ShutdownSignalException cause) {
        if (!cause.isInitiatedByApplication()) {
            inbox.add(new Closed(consumingChannel, cause));
        }
    }

    private boolean finished() {
        if (failure != null) {
            return !cancelling && unsettled.awaiting() == 0;
        }
        return ending != null && !cancelling && unsettled.size() == 0;
    }

    private void handle(Event event) throws IOException {
        if (event instanceof Delivered delivered) {
            delivered(delivered);
        } else if (event instanceof Confirmed confirmed) {
            lastConfirm = ticker.getAsLong();
            unsettled.confirm(confirmed.sequence(), confirmed.multiple(), confirmed.stored() && !returned);
            if (!confirmed.stored()) {
                fail("the broker refused a copy (" + destination + " may be full and reject publishes, or be "
                        + "unavailable)", null);
            }
        } else if (event instanceof Returned copy) {
            returned = true;
            fail("the broker returned a copy (" + copy.replyCode() + " " + copy.replyText() + "): there is no queue "
                    + destination, null);
        } else if (event instanceof CancelledByBroker) {
            subscribed = false;
            cancelling = false;
            fail("the broker cancelled the mover's consumer: " + source + " was deleted, or its leader moved", null);
        } else if (event instanceof CancelOk) {
            cancelling = false;
        } else if (event instanceof Closed closed && closed.consuming()) {
            throw new MoveException("moving messages from " + source + " to " + destination + " stopped after " + moved
                    + ": the channel consuming " + source + " closed (" + closed.cause().getMessage() + "). The "
                    + "messages it held went back to " + source + " (a quorum queue counts a delivery of each), those "
                    + "already copied are in both queues; run the move again", moved, closed.cause());
        } else if (event instanceof Closed closed) {
            unsettled.refuseAwaiting();
            fail("the channel publishing to " + destination + " closed (" + closed.cause().getMessage() + ")",
                    closed.cause());
        }
    }

    private void delivered(Delivered delivery) throws IOException {
        received++;
        long tag = delivery.envelope().getDeliveryTag();
        highestTag = Math.max(highestTag, tag);
        lastDelivery = ticker.getAsLong();
        if (failure == null) {
            publish(delivery, tag);
        }
        if (received >= options.limit() && subscribed && failure == null) {
            stop(Ending.LIMIT);
        }
    }

    private void publish(Delivered delivery, long tag) {
        Map<String, Object> headers;
        try {
            headers = rewrite.headers(delivery.properties(), delivery.envelope());
        } catch (RuntimeException e) {
            fail("the headers of a message could not be rewritten: " + e, e);
            return;
        }
        AMQP.BasicProperties.Builder copy = delivery.properties().builder().headers(headers).deliveryMode(2);
        if (options.expiration() == MoveOptions.Expiration.DROP) {
            copy.expiration(null);
        }
        String userId = delivery.properties().getUserId();
        if (userId != null && !options.user().filter(userId::equals).isPresent()) {
            copy.userId(null);
        }
        long sequence = publishing.getNextPublishSeqNo();
        String target = destination;
        try {
            target = destinations.choose(delivery.properties(), headers);
            publishing.basicPublish("", target, true, copy.build(), delivery.body());
        } catch (IOException | AlreadyClosedException e) {
            fail("a copy could not be published to " + target + ": " + e.getMessage(), e);
            return;
        }
        if (unsettled.awaiting() == 0) {
            lastConfirm = ticker.getAsLong();
        }
        unsettled.add(sequence, tag);
        lastPublishedTag = tag;
    }

    /**
     * Acknowledges the originals of the oldest copies the broker confirmed, in one frame. While the consumer is
     * subscribed with a limit, it stops short of the last {@code prefetch} messages, so that the source never hands
     * the mover more than the limit.
     */
    private void acknowledgeConfirmed() throws IOException {
        if (failure != null || unsettled.size() == 0) {
            return;
        }
        long most = subscribed && options.limit() != Long.MAX_VALUE ? options.limit() - prefetch - moved : Long.MAX_VALUE;
        int run = unsettled.confirmedRun(Math.max(0, most));
        if (run > 0) {
            consuming.basicAck(unsettled.tag(run - 1), true);
            unsettled.settle(run);
            moved += run;
        }
    }

    private boolean checkDue() {
        return failure == null && subscribed && unsettled.awaiting() == 0
                && ticker.getAsLong() - lastCheck >= CHECK_EVERY.toNanos();
    }

    /** Reads the source's count, with nothing on its way: none ready means drained. */
    private void checkDrained() throws IOException {
        lastCheck = ticker.getAsLong();
        long ready = consuming.messageCount(source);
        if (ready == 0) {
            stop(Ending.DRAINED);
        } else if (lastCheck - lastDelivery > options.timeout().toNanos()) {
            fail(source + " holds " + ready + " ready messages and delivered none to the mover in "
                    + options.timeout().toSeconds() + " s: a single active consumer or a consumer of higher priority "
                    + "takes them", null);
        }
    }

    /** Nothing arrived for a while: a confirm, or the end of a failure, may be overdue. */
    private void idle() {
        long now = ticker.getAsLong();
        if (failure != null) {
            if (now - failedAt > options.timeout().toNanos()) {
                unsettled.refuseAwaiting();
                cancelling = false;
            }
        } else if (unsettled.awaiting() > 0 && now - lastConfirm > options.timeout().toNanos()) {
            fail("the broker confirmed no copy in " + options.timeout().toSeconds() + " s", null);
        }
    }

    /** Cancels the consumer; what it was handed before its cancel-ok is still copied. */
    private void stop(Ending why) throws IOException {
        ending = why;
        cancel();
    }

    private void cancel() throws IOException {
        if (subscribed) {
            subscribed = false;
            cancelling = true;
            consuming.basicCancel(consumerTag);
        }
    }

    /** Stops the move on its first failure: nothing more is copied, and the consumer is cancelled. */
    private void fail(String reason, Throwable cause) {
        if (failure != null) {
            return;
        }
        failure = reason;
        failureCause = cause;
        failedAt = ticker.getAsLong();
        try {
            cancel();
        } catch (IOException | AlreadyClosedException e) {
            cancelling = false;
        }
    }

    /**
     * Acknowledges the originals of the confirmed copies, and returns every other message the mover holds to the
     * source with one {@code basic.nack}.
     */
    private void settleAfterFailure() throws IOException {
        if (!consuming.isOpen()) {
            return;
        }
        int run = unsettled.confirmedRun(Long.MAX_VALUE);
        if (run > 0) {
            consuming.basicAck(unsettled.tag(run - 1), true);
            moved += run;
        }
        long highestHeld = highestTag > lastPublishedTag ? highestTag : 0;
        for (int index = run; index < unsettled.size(); index++) {
            if (unsettled.confirmed(index)) {
                consuming.basicAck(unsettled.tag(index), false);
                moved++;
            } else {
                highestHeld = Math.max(highestHeld, unsettled.tag(index));
            }
        }
        unsettled.settle(unsettled.size());
        if (highestHeld > 0) {
            consuming.basicNack(highestHeld, true, true);
        }
    }

    /** Closes the channels; a delivery that reached the mover after its end goes back to the source with them. */
    @Override
    public void close() throws IOException {
        IOException failed = null;
        for (Channel channel : new Channel[] {consuming, publishing}) {
            if (channel != null && channel.isOpen()) {
                try {
                    channel.close();
                } catch (AlreadyClosedException closedMeanwhile) {
                    // its connection went first
                } catch (IOException e) {
                    failed = failed == null ? e : failed;
                } catch (TimeoutException e) {
                    failed = failed == null ? new IOException("a channel of the move did not close in time", e) : failed;
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** The consumer, on the client's consumer thread: it only hands on what arrives. */
    private final class Inbox extends DefaultConsumer {

        Inbox(Channel channel) {
            super(channel);
        }

        @Override
        public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
            inbox.add(new Delivered(envelope, properties, body));
        }

        @Override
        public void handleCancelOk(String tag) {
            inbox.add(new CancelOk());
        }

        @Override
        public void handleCancel(String tag) {
            inbox.add(new CancelledByBroker());
        }
    }
}
