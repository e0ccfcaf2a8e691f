package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ConsoleSettingsTest {

    @Test
    void refusesAnAddressOtherMachinesReachUnlessAllowed() throws Exception {
        InetAddress any = InetAddress.getByName("0.0.0.0");

        assertThatThrownBy(() -> new ConsoleSettings(any, 15680, false, false, "alice", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("would listen on 0.0.0.0, which other machines may reach")
                .hasMessageContaining("--allow-remote");
        assertThat(new ConsoleSettings(any, 15680, true, false, "alice", 1).allowRemote()).isTrue();
        assertThat(new ConsoleSettings(InetAddress.getByName("::1"), 0, false, false, "alice", 1).port()).isZero();
    }

    @Test
    void refusesABadPortABlankOperatorAndAnEmptyReading() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();

        assertThatThrownBy(() -> new ConsoleSettings(loopback, 70_000, false, false, "alice", 1))
                .hasMessage("a port is 0 to 65535, got 70000");
        assertThatThrownBy(() -> new ConsoleSettings(loopback, 0, false, false, " ", 1))
                .hasMessage("the operator is named, got a blank name");
        assertThatThrownBy(() -> new ConsoleSettings(loopback, 0, false, false, "alice", 0))
                .hasMessage("a reading takes at least 1 message, got 0");
    }
}
