package io.github.retrytopology.model.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.model.problem.InvalidSpecException;
import io.github.retrytopology.model.problem.ProblemCode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The queue a service keeps ({@code queue:}): names RabbitMQ cannot declare, and names that plan and apply would
 * take for another queue of the spec, are refused where the spec writes them; any other name is the service's queue.
 * Service {@code ucenter-user} keeps the queue under test, beside {@code billing}, which has one tier.
 */
class KeptQueuesTest {

    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource(delimiter = '|', value = {
        "''                        | BAD_QUEUE      | the queue has no name",
        "amq.x                     | BAD_QUEUE      | 'amq.x' starts with 'amq.'",
        "amq.gen-JzTY20BRgKO       | BAD_QUEUE      | RabbitMQ reserves for the queues it names itself",
        "ucenter\\u0000user        | BAD_QUEUE      | 'ucenter\\u0000user' contains a control character",
        "ucenter\\nuser            | BAD_QUEUE      | 'ucenter\\nuser' contains a control character",
        "ucenter\\x7Fuser          | BAD_QUEUE      | contains a control character",
        "ucenter\\u0085user        | BAD_QUEUE      | contains a control character",
        "billing                   | NAME_COLLISION | is named as the queue of service 'billing' (line 6)",
        "billing.retry.1           | NAME_COLLISION | is named as the wait queue of tier 1 of service 'billing' (line 6)",
        "billing.retry.9           | NAME_COLLISION | is named as the wait queue of tier 9 of service 'billing'",
        "billing.parking-lot       | NAME_COLLISION | is named as the parking lot of service 'billing'",
        "billing.migrating         | NAME_COLLISION | the temporary queue that apply --migrate makes for the queue of service 'billing'",
        "billing.retry.1.migrating | NAME_COLLISION | the temporary queue that apply --migrate makes for the wait queue of tier 1",
        "ucenter-user.retry.1      | NAME_COLLISION | is named as the wait queue of tier 1 of that service",
        "ucenter-user.parking-lot  | NAME_COLLISION | is named as the parking lot of that service",
        "ucenter-user.migrating    | NAME_COLLISION | the temporary queue that apply --migrate makes for the queue of that service",
    })
    void refusesWhereTheSpecWritesIt(String queue, ProblemCode code, String message) {
        InvalidSpecException error = refused(spec("\"" + queue + "\""));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(code);
            assertThat(problem.position().line()).isEqualTo(9);
            assertThat(problem.position().column()).isEqualTo(12);
            assertThat(problem.path()).isEqualTo("services.ucenter-user.queue");
            assertThat(problem.message()).contains(message).contains("drop 'queue' to consume 'ucenter-user'");
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"256 ASCII bytes, x, 256", "two bytes a character, é, 128", "four bytes a character, 😀, 64"})
    void refusesANameOverRabbitMqsLimitInBytes(String kind, String character, int times) {
        String queue = character.repeat(times);

        InvalidSpecException error = refused(spec(literal(queue)));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.NAME_TOO_LONG);
            assertThat(problem.message()).endsWith("is 256 bytes long; RabbitMQ allows at most 255");
        });
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"ucenter@user", "service_a_input_q", "primary-queue", "orders.retry.1", "orders.parking-lot",
        "orders.migrating", "Ucenter-User", "billing-in", "usuários@fila", "队列", "😀", "sp ace", "a \"quoted\" 'queue'",
        "back\\slash", "123", "amq", "x.amq.y"})
    void keepsAnyOtherName(String queue) {
        RetrySpec spec = Specs.parse(spec(literal(queue)), "retry.yml");

        Service service = spec.service("ucenter-user");
        assertThat(service.queue()).isEqualTo(queue);
        assertThat(service.keepsQueue()).isTrue();
        assertThat(service.parkingLot()).isEqualTo("ucenter-user.parking-lot");
        assertThat(service.tiers()).extracting(tier -> tier.queue()).containsExactly("ucenter-user.retry.1");
        assertThat(service.queuePolicy()).isEqualTo("ucenter-user");
    }

    @Test
    void keepsANameOfRabbitMqsLongestWithoutFuss() {
        String queue = "é".repeat(127) + "x";

        assertThat(Specs.parse(spec(literal(queue)), "retry.yml").service("ucenter-user").queue()).isEqualTo(queue);
    }

    @Test
    void acceptsTheServicesOwnNameAsNoKeptQueueAtAll() {
        RetrySpec spec = Specs.parse(spec(literal("ucenter-user")), "retry.yml");

        assertThat(spec.service("ucenter-user").queue()).isEqualTo("ucenter-user");
        assertThat(spec.service("ucenter-user").keepsQueue()).isFalse();
        assertThat(spec).isEqualTo(Specs.parse(spec(null), "retry.yml"));
    }

    @Test
    void namesBothServicesThatKeepOneQueue() {
        InvalidSpecException error = refused(("version: 1\npackage: com.acme.retry\nexchange: acme.events\n"
                + "defaults: {maxAttempts: 1}\nservices:\n"
                + "  a: {queue: shared, routingKeys: [x]}\n"
                + "  b: {queue: shared, routingKeys: [y]}\n"
                + "  c: {queue: shared, routingKeys: [z]}\n").getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).extracting(problem -> problem.position().line() + " " + problem.message())
                .containsExactly(
                        "7 services 'b' and 'a' (line 6) both consume queue 'shared', but each service needs a queue of "
                                + "its own; name it otherwise, or drop 'queue' to consume 'b'",
                        "8 services 'c' and 'a' (line 6) both consume queue 'shared', but each service needs a queue of "
                                + "its own; name it otherwise, or drop 'queue' to consume 'c'");
    }

    @Test
    void refusesATemporaryQueueOfAnotherKeptQueueWhicheverComesFirst() {
        InvalidSpecException error = refused(("version: 1\npackage: com.acme.retry\nexchange: acme.events\n"
                + "defaults: {maxAttempts: 1}\nservices:\n"
                + "  a: {queue: in.migrating, routingKeys: [x]}\n"
                + "  b: {queue: in, routingKeys: [y]}\n").getBytes(StandardCharsets.UTF_8));

        assertThat(error.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.code()).isEqualTo(ProblemCode.NAME_COLLISION);
            assertThat(problem.path()).isEqualTo("services.a.queue");
            assertThat(problem.message()).contains("'in.migrating' of service 'a' is the temporary queue that apply "
                    + "--migrate makes for 'in', the queue of service 'b' (line 7)");
        });
    }

    @Test
    void aServiceBuiltInCodeRefusesWhatTheValidatorRefuses() {
        Service service = Specs.parse(spec(literal("ucenter@user")), "retry.yml").service("ucenter-user");

        for (String queue : List.of("", "amq.x", "a\rb", "x".repeat(256), "ucenter-user.retry.1",
                "ucenter-user.migrating")) {
            assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new Service(service.name(), queue,
                    service.routes(), service.retryPolicy(), service.queueType())))
                    .as("queue '%s'", queue).hasMessageContaining("cannot consume queue");
        }
        RetrySpec spec = Specs.parse(spec(literal("ucenter@user")), "retry.yml");
        Service billing = spec.service("billing");
        for (String queue : List.of("billing.retry.1", "billing", "ucenter@user", "ucenter@user.migrating")) {
            Service keeping = new Service("other", queue, billing.routes(), billing.retryPolicy(), billing.queueType());
            assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new RetrySpec(spec.javaPackage(),
                    spec.vhost(), spec.exchange(), spec.queueSettings(), List.of(spec.service("ucenter-user"), billing,
                    keeping)))).as("queue '%s'", queue).hasMessageContaining(queue);
        }
    }

    /** Service ucenter-user, which keeps the queue this YAML scalar writes (or none, for null), at line 9, beside billing. */
    private static byte[] spec(String queue) {
        return ("version: 1\npackage: com.acme.retry\nexchange: acme.events\ndefaults: {maxAttempts: 2, delays: [30s]}\n"
                + "services:\n"
                + "  billing:\n"
                + "    routingKeys: [order.paid]\n"
                + "  ucenter-user:\n"
                + (queue == null ? "" : "    queue: " + queue + "\n")
                + "    routingKeys: [user.created]\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A double-quoted YAML scalar that holds exactly this text. */
    private static String literal(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static InvalidSpecException refused(byte[] spec) {
        InvalidSpecException error = catchThrowableOfType(InvalidSpecException.class, () -> Specs.parse(spec, "retry.yml"));
        assertThat(error).as("the spec is refused").isNotNull();
        return error;
    }
}
