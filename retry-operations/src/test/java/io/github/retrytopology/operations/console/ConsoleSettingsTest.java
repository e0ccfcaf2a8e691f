package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ConsoleSettingsTest {

    private static final OperatorSource PROXY = OperatorSource.header("X-Remote-User");

    @Test
    void refusesAnAddressOtherMachinesReachUnlessAllowed() throws Exception {
        InetAddress any = InetAddress.getByName("0.0.0.0");

        assertThatThrownBy(() -> new ConsoleSettings(any, 15680, false, false, PROXY, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("would listen on 0.0.0.0, which other machines may reach")
                .hasMessageContaining("--allow-remote");
        assertThat(new ConsoleSettings(any, 15680, true, false, PROXY, 1).allowRemote()).isTrue();
        assertThat(new ConsoleSettings(InetAddress.getByName("::1"), 0, false, false, OperatorSource.named("alice"), 1)
                .port()).isZero();
    }

    @Test
    void refusesAnAddressOtherMachinesReachWithoutAProxyThatNamesEachUser() throws Exception {
        InetAddress any = InetAddress.getByName("0.0.0.0");

        assertThatThrownBy(() -> new ConsoleSettings(any, 15680, true, false, OperatorSource.named("alice"), 1))
                .hasMessageStartingWith("--allow-remote needs --operator-header: ")
                .hasMessageContaining("anyone who reaches it replays and purges under one name");
    }

    @Test
    void takesAProxysHeaderOnTheLoopbackAddressForAProxyOnTheSameMachine() {
        ConsoleSettings settings = new ConsoleSettings(InetAddress.getLoopbackAddress(), 0, false, false, PROXY, 1);

        assertThat(settings.operator()).isEqualTo(new OperatorSource.ProxyHeader("X-Remote-User"));
    }

    @Test
    void refusesABadPortABlankOperatorAndAnEmptyReading() throws Exception {
        assertThatThrownBy(() -> ConsoleSettings.local(70_000, false, "alice", 1))
                .hasMessage("a port is 0 to 65535, got 70000");
        assertThatThrownBy(() -> ConsoleSettings.local(0, false, " ", 1))
                .hasMessage("the operator is named, got a blank name");
        assertThatThrownBy(() -> ConsoleSettings.local(0, false, "alice", 0))
                .hasMessage("a reading takes at least 1 message, got 0");
    }
}
