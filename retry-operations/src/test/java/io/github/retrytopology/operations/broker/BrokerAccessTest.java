package io.github.retrytopology.operations.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerAccessTest {

    @Test
    void theManagementApiDefaultsToEachAmqpHostWithItsCredentials() {
        BrokerAccess access = BrokerAccess.of(List.of(), List.of("amqp://ops:pw@rabbit-1:5672/shop,amqps://rabbit-2"),
                Optional.empty(), Optional.empty());

        assertThat(access.managementUris()).containsExactly(URI.create("http://rabbit-1:15672"),
                URI.create("https://rabbit-2:15671"));
        assertThat(access.amqpUris()).containsExactly(URI.create("amqp://rabbit-1:5672/shop"), URI.create("amqps://rabbit-2"));
        assertThat(access.management()).isEqualTo(new BrokerAccess.Credentials("ops", "pw"));
        assertThat(access.amqp()).isEqualTo(new BrokerAccess.Credentials("ops", "pw"));
    }

    @Test
    void withNothingGivenItIsTheLocalBrokerAsGuest() {
        BrokerAccess access = BrokerAccess.of(List.of(), List.of(), Optional.empty(), Optional.empty());

        assertThat(access.managementUris()).containsExactly(URI.create("http://localhost:15672"));
        assertThat(access.amqpUris()).containsExactly(URI.create("amqp://localhost:5672"));
        assertThat(access.management()).isEqualTo(new BrokerAccess.Credentials("guest", "guest"));
    }

    @Test
    void eachApiTakesItsOwnUrisCredentialsFirstAndAGivenUserWinsOverBoth() {
        List<String> management = List.of("https://admin:secret@mgmt:15671");
        List<String> amqp = List.of("amqp://app:apppw@rabbit");

        BrokerAccess fromUris = BrokerAccess.of(management, amqp, Optional.empty(), Optional.empty());
        BrokerAccess given = BrokerAccess.of(management, amqp, Optional.of("deployer"), Optional.of("p@ss:word"));
        BrokerAccess passwordOnly = BrokerAccess.of(List.of("http://mgmt"), amqp, Optional.empty(), Optional.of("other"));

        assertThat(fromUris.management()).isEqualTo(new BrokerAccess.Credentials("admin", "secret"));
        assertThat(fromUris.amqp()).isEqualTo(new BrokerAccess.Credentials("app", "apppw"));
        assertThat(given.management()).isEqualTo(new BrokerAccess.Credentials("deployer", "p@ss:word"));
        assertThat(given.amqp()).isEqualTo(given.management());
        assertThat(passwordOnly.management()).isEqualTo(new BrokerAccess.Credentials("app", "other"));
    }

    @Test
    void credentialsNeverShow() {
        BrokerAccess access = BrokerAccess.of(List.of("https://admin:secret@mgmt:15671"), List.of("amqp://app:apppw@rabbit"),
                Optional.empty(), Optional.empty());

        assertThat(access.managementUris()).containsExactly(URI.create("https://mgmt:15671"));
        assertThat(access.toString()).doesNotContain("secret").doesNotContain("apppw").contains("admin");
        assertThat(access.management().toString()).isEqualTo("Credentials[username=admin, password=***]");
        assertThatThrownBy(() -> BrokerAccess.of(List.of("http://admin:secret@bad host"), List.of(), Optional.empty(),
                Optional.empty()))
                .hasMessage("'http://admin:***@bad host' is not a management URI: Illegal character in authority");
        assertThatThrownBy(() -> BrokerAccess.of(List.of(), List.of("http://admin:secret@rabbit"), Optional.empty(),
                Optional.empty()))
                .hasMessage("an AMQP URI is amqp:// or amqps://, not http://rabbit");
    }

    @Test
    void aUsernameNeedsItsPassword() {
        assertThatThrownBy(() -> BrokerAccess.of(List.of(), List.of(), Optional.of("deployer"), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a username needs its password");
    }
}
