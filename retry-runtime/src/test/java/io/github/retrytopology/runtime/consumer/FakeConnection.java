package io.github.retrytopology.runtime.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmCallback;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Consumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection and channels that exist only in this JVM, for tests of the consumer's own bookkeeping: what it
 * does when a channel closes at an awkward moment, or a confirm never comes. It says nothing about RabbitMQ;
 * the broker's behaviour is tested against a real broker.
 */
final class FakeConnection {

    /** What the fake channel does when the consumer publishes. */
    @FunctionalInterface
    interface OnPublish {
        void publish(FakeChannel channel, String routingKey, AMQP.BasicProperties properties) throws Exception;
    }

    /** What the fake channel does when the consumer subscribes, before it answers: it may take its time. */
    @FunctionalInterface
    interface OnConsume {
        void consume(FakeChannel channel) throws Exception;
    }

    final List<FakeChannel> channels = new CopyOnWriteArrayList<>();
    final List<BlockedListener> blockedListeners = new CopyOnWriteArrayList<>();
    /** The version the fake broker reports. */
    volatile String brokerVersion = "4.3.6";
    private final OnPublish onPublish;
    private final OnConsume onConsume;
    final Connection connection;

    FakeConnection(OnPublish onPublish) {
        this(onPublish, channel -> { });
    }

    FakeConnection(OnPublish onPublish, OnConsume onConsume) {
        this.onPublish = onPublish;
        this.onConsume = onConsume;
        this.connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "createChannel" -> {
                        FakeChannel channel = new FakeChannel(channels.size() + 1);
                        channels.add(channel);
                        yield channel.channel;
                    }
                    case "getFrameMax" -> 131_072;
                    case "getServerProperties" -> Map.of("version", brokerVersion);
                    case "isOpen" -> true;
                    case "addBlockedListener" -> {
                        blockedListeners.add((BlockedListener) args[0]);
                        yield null;
                    }
                    case "removeBlockedListener" -> true;
                    case "toString" -> "fake connection";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException("fake connection: " + method.getName());
                });
    }

    /** One channel: it records what the consumer does, and lets a test act as the broker. */
    final class FakeChannel {
        final int number;
        final Channel channel;
        final List<ShutdownListener> shutdownListeners = new CopyOnWriteArrayList<>();
        final List<ConfirmListener> confirmListeners = new CopyOnWriteArrayList<>();
        final List<String> attempts = new CopyOnWriteArrayList<>();
        final List<String> published = new CopyOnWriteArrayList<>();
        final List<Long> acks = new CopyOnWriteArrayList<>();
        final List<Long> nacks = new CopyOnWriteArrayList<>();
        final List<Long> rejects = new CopyOnWriteArrayList<>();
        final List<String> consumes = new CopyOnWriteArrayList<>();
        /** Acknowledgements and cancels, in the order they went out on the channel. */
        final List<String> frames = new CopyOnWriteArrayList<>();
        final AtomicLong nextSequence = new AtomicLong(1);
        volatile Consumer consumer;
        volatile boolean open = true;

        FakeChannel(int number) {
            this.number = number;
            this.channel = (Channel) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Channel.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "confirmSelect" -> null;
                        case "addConfirmListener" -> {
                            ConfirmListener listener = args.length == 1 ? (ConfirmListener) args[0]
                                    : confirmListener((ConfirmCallback) args[0], (ConfirmCallback) args[1]);
                            confirmListeners.add(listener);
                            yield listener;
                        }
                        case "addShutdownListener" -> {
                            shutdownListeners.add((ShutdownListener) args[0]);
                            yield null;
                        }
                        case "addReturnListener", "basicQos" -> null;
                        case "basicCancel" -> {
                            frames.add("cancel " + args[0]);
                            yield null;
                        }
                        case "getConnection" -> connection;
                        case "getChannelNumber" -> number;
                        case "isOpen" -> open;
                        case "close" -> {
                            open = false;
                            yield null;
                        }
                        case "basicConsume" -> {
                            String tag = args.length > 3 ? (String) args[2] : "fake-tag";
                            consumes.add(tag);
                            onConsume.consume(this);
                            consumer = (Consumer) args[args.length - 1];
                            consumer.handleConsumeOk(tag);
                            yield tag;
                        }
                        case "asyncRpc" -> {
                            if (args[0] instanceof AMQP.Basic.Cancel cancel) {
                                frames.add("cancel " + cancel.getConsumerTag() + (cancel.getNowait() ? " nowait" : ""));
                            }
                            yield null;
                        }
                        case "getNextPublishSeqNo" -> nextSequence.get();
                        case "basicPublish" -> {
                            attempts.add((String) args[1]);
                            onPublish.publish(this, (String) args[1], (AMQP.BasicProperties) args[args.length - 2]);
                            requireOpen();
                            nextSequence.incrementAndGet();
                            published.add((String) args[1]);
                            yield null;
                        }
                        case "basicAck" -> {
                            requireOpen();
                            acks.add((Long) args[0]);
                            frames.add("ack " + args[0]);
                            yield null;
                        }
                        case "basicNack" -> {
                            requireOpen();
                            nacks.add((Long) args[0]);
                            yield null;
                        }
                        case "basicReject" -> {
                            requireOpen();
                            rejects.add((Long) args[0]);
                            yield null;
                        }
                        case "toString" -> "fake channel " + number;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> throw new UnsupportedOperationException("fake channel: " + method.getName());
                    });
        }

        /** Delivers a message to the consumer, as the broker would. */
        void deliver(long tag, String routingKey, AMQP.BasicProperties properties, byte[] body) throws Exception {
            consumer.handleDelivery("fake-tag", new Envelope(tag, false, "test.events", routingKey), properties, body);
        }

        /** Closes the channel as a channel error would, telling its listeners. */
        void closeByBroker() {
            open = false;
            ShutdownSignalException cause = new ShutdownSignalException(false, false,
                    new AMQP.Channel.Close.Builder().replyCode(406).replyText("PRECONDITION_FAILED - test").build(),
                    channel);
            shutdownListeners.forEach(listener -> listener.shutdownCompleted(cause));
        }

        /** Cancels the consumer's subscription, as the broker does when its queue is deleted. */
        void cancelByBroker() {
            try {
                consumer.handleCancel(consumes.get(consumes.size() - 1));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** Refuses every publish so far, as a broker that nacks them. */
        void refuseAll() throws Exception {
            for (ConfirmListener listener : confirmListeners) {
                listener.handleNack(nextSequence.get() - 1, true);
            }
        }

        /** Confirms every publish so far. */
        void confirmAll() throws Exception {
            for (ConfirmListener listener : confirmListeners) {
                listener.handleAck(nextSequence.get() - 1, true);
            }
        }

        private static ConfirmListener confirmListener(ConfirmCallback acks, ConfirmCallback nacks) {
            return new ConfirmListener() {
                @Override
                public void handleAck(long sequence, boolean multiple) throws java.io.IOException {
                    acks.handle(sequence, multiple);
                }

                @Override
                public void handleNack(long sequence, boolean multiple) throws java.io.IOException {
                    nacks.handle(sequence, multiple);
                }
            };
        }

        private void requireOpen() {
            if (!open) {
                throw new AlreadyClosedException(new ShutdownSignalException(false, false, null, channel));
            }
        }
    }
}
