package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutesTest {

    private final Routes.Handler groups = request -> Reply.ok("groups");
    private final Routes.Handler messages = request -> Reply.ok("messages");
    private final Routes.Handler replay = request -> Reply.ok("replay");
    private final Routes.Handler page = request -> Reply.ok("page");
    private final Routes routes = new Routes()
            .get("/", page)
            .get("/api/services/{service}/groups", groups)
            .get("/api/services/{service}/groups/{key}/messages", messages)
            .post("/api/services/{service}/replay", replay);

    @Test
    void routesByMethodAndPatternAndDecodesEachParameter() {
        Routes.Match match = routes.match("GET", "/api/services/orders/groups/3f9a/messages");
        Routes.Match escaped = routes.match("GET", "/api/services/a%2Fb%20c+d/groups");

        assertThat(match.handler()).isSameAs(messages);
        assertThat(match.parameters()).isEqualTo(Map.of("service", "orders", "key", "3f9a"));
        assertThat(escaped.parameters()).isEqualTo(Map.of("service", "a/b c+d"));
        assertThat(routes.match("POST", "/api/services/orders/replay").handler()).isSameAs(replay);
        assertThat(routes.match("GET", "/").handler()).isSameAs(page);
    }

    @Test
    void answersAPathOfNoRoute404AndOneOfAnotherMethod405WithTheMethodsItTakes() {
        assertThatThrownBy(() -> routes.match("GET", "/api/services/orders/tiers"))
                .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessage("no API /api/services/orders/tiers");
        assertThatThrownBy(() -> routes.match("GET", "/api/services//groups"))
                .as("an empty segment is no parameter").hasMessage("no API /api/services//groups");
        assertThatThrownBy(() -> routes.match("GET", "/favicon.ico")).hasMessage("no page /favicon.ico");
        assertThatThrownBy(() -> routes.match("GET", "/api/services/orders/replay"))
                .isInstanceOfSatisfying(ConsoleException.class, e -> {
                    assertThat(e.status()).isEqualTo(405);
                    assertThat(e.allowed()).containsExactly("POST");
                })
                .hasMessage("GET /api/services/orders/replay is not allowed; use POST");
    }

    @Test
    void refusesABrokenEscape() {
        assertThatThrownBy(() -> routes.match("GET", "/api/services/%zz/groups"))
                .isInstanceOfSatisfying(ConsoleException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("the path has a broken %-escape: %zz");
    }
}
