package io.github.retrytopology.runtime.parkinglot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.runtime.headers.MessageProperties;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The parking lot's own bookkeeping, against a fake channel; what RabbitMQ does is tested in {@code ParkingLotIT}. */
class ParkingLotTest {

    @Test
    void aReplayWhoseChannelCannotSelectConfirmsClosesIt() throws IOException {
        List<String> calls = new CopyOnWriteArrayList<>();
        Channel channel = (Channel) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Channel.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "confirmSelect" -> throw new IOException("the broker refuses confirms here");
                        case "isOpen" -> !calls.contains("close");
                        default -> null;
                    };
                });
        Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("createChannel")
                        ? channel : null);
        Service orders = Specs.load(Path.of("src/test/resources/specs/fast-retries.yml")).service("orders");

        assertThatThrownBy(() -> ParkingLot.of(connection, orders).replay(ReplayFilter.all(), 10, false))
                .isInstanceOf(IOException.class).hasMessage("the broker refuses confirms here");

        assertThat(calls).contains("close");
    }

    @Test
    void parkedMessagesAreEqualByTheirBytesNotTheirArrays() {
        MessageProperties properties = new MessageProperties("m-1", null, Map.of(), Map.of());
        ParkedMessage one = new ParkedMessage(properties, "body".getBytes(StandardCharsets.UTF_8), 1);
        ParkedMessage same = new ParkedMessage(properties, "body".getBytes(StandardCharsets.UTF_8), 1);

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(one).isNotEqualTo(new ParkedMessage(properties, "other".getBytes(StandardCharsets.UTF_8), 1));
        assertThat(one).hasToString("ParkedMessage[properties=" + properties + ", body=4 bytes, copies=1]");
    }
}
