package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperatorSourceTest {

    private final OperatorSource.ProxyHeader proxy = new OperatorSource.ProxyHeader("X-Remote-User");

    @ParameterizedTest
    @ValueSource(strings = {"alice", "alice@example.com", "EXAMPLE\\alice", "cn=Alice Smith,ou=oncall", "a"})
    void takesTheNameTheProxySet(String name) {
        assertThat(proxy.operatorOf(List.of(name))).isEqualTo(name);
    }

    @Test
    void takesANameOfTheLongestLength() {
        String longest = "a".repeat(OperatorSource.MAX_NAME);

        assertThat(proxy.operatorOf(List.of(longest))).isEqualTo(longest);
    }

    @Test
    void refusesARequestTheProxyNamedNoOneIn() {
        assertThatThrownBy(() -> proxy.operatorOf(null))
                .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessage("this console serves only through its authenticating proxy, which names you in the "
                        + "X-Remote-User header; the request has none");
        assertThatThrownBy(() -> proxy.operatorOf(List.of())).hasMessageEndingWith("the request has none");
    }

    @Test
    void refusesARequestThatNamesTwoOperators() {
        assertThatThrownBy(() -> proxy.operatorOf(List.of("alice", "mallory")))
                .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessage("the request names its operator 2 times in the X-Remote-User header; the proxy sets it once");
    }

    @Test
    void refusesAValueThatIsNotANameQuotingItSafely() {
        String expected = "the X-Remote-User header is not an operator's name: it is 1 to 256 printable ASCII "
                + "characters, without a space at either end; got ";

        assertThatThrownBy(() -> proxy.operatorOf(List.of(""))).hasMessage(expected + "''");
        assertThatThrownBy(() -> proxy.operatorOf(List.of("alice\nretry-replayed-by: bob")))
                .hasMessage(expected + "'alice\\u000aretry-replayed-by: bob'");
        assertThatThrownBy(() -> proxy.operatorOf(List.of("alice\u0000"))).hasMessage(expected + "'alice\\u0000'");
        assertThatThrownBy(() -> proxy.operatorOf(List.of("al\u00efce"))).hasMessage(expected + "'al\\u00efce'");
        assertThatThrownBy(() -> proxy.operatorOf(List.of(" alice"))).hasMessage(expected + "' alice'");
        assertThatThrownBy(() -> proxy.operatorOf(List.of("x".repeat(10_240))))
                .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessage(expected + "'" + "x".repeat(40) + "'… (10240 characters)");
        assertThatThrownBy(() -> proxy.operatorOf(List.of("a".repeat(OperatorSource.MAX_NAME + 1))))
                .hasMessageEndingWith("… (257 characters)");
    }

    @Test
    void refusesAHeaderNameThatIsNotOne() {
        assertThatThrownBy(() -> OperatorSource.header("X Remote User"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--operator-header is a header's name, such as X-Remote-User: letters, digits and "
                        + "!#$%&'*+-.^_`|~; got 'X Remote User'");
        assertThatThrownBy(() -> OperatorSource.header("")).hasMessageEndingWith("got ''");
        assertThatThrownBy(() -> OperatorSource.header("X-User:")).hasMessageEndingWith("got 'X-User:'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Host", "origin", "Authorization", "Cookie", "X-Retry-Console-Token", "Sec-Fetch-Site",
            "Content-Type"})
    void refusesAHeaderThatBrowsersTheConsoleOrCredentialsUse(String header) {
        assertThatThrownBy(() -> OperatorSource.header(header))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--operator-header " + header + " is a header that browsers, the console or credentials "
                        + "use; name the one your proxy sets for its user, such as X-Remote-User");
    }

    @Test
    void refusesABlankName() {
        assertThatThrownBy(() -> OperatorSource.named("  ")).hasMessage("the operator is named, got a blank name");
    }
}
