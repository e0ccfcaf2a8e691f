package io.github.retrytopology.operations.adopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.adopt.AdoptionRecord.Listed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Definitions adopt cannot read, or can only partly map: each is said, never guessed or dropped. */
class AdoptBadInputTest {

    private static final Path BAD = Path.of("src/test/resources/adopt/bad");

    @Test
    void malformedJsonIsRefusedWithItsFileLineAndColumn() {
        Path file = BAD.resolve("malformed.json");

        assertThatThrownBy(() -> Definitions.read(file, Optional.empty()))
                .isInstanceOfSatisfying(DefinitionsException.class, e -> {
                    assertThat(e.file()).isEqualTo(file.toString());
                    assertThat(e.line()).hasValue(3);
                    assertThat(e.column()).hasValue(40);
                })
                .hasMessageStartingWith(file + ":3:40: malformed JSON: Unexpected character ('}' (code 125))");
    }

    @Test
    void anObjectOfTheWrongShapeIsRefusedWhereItStarts() {
        Path file = BAD.resolve("wrong-shape.json");

        assertThatThrownBy(() -> Definitions.read(file, Optional.empty()))
                .isInstanceOf(DefinitionsException.class)
                .hasMessage(file + ":4:5: queues[1] has 'name' the number 42; expected a string");
    }

    @Test
    void aFileOfSeveralVirtualHostsNeedsTheOneToAdoptNamed() throws IOException {
        Path file = BAD.resolve("two-vhosts.json");

        assertThatThrownBy(() -> Definitions.read(file, Optional.empty()))
                .isInstanceOf(DefinitionsException.class)
                .hasMessage(file + ": holds the virtual hosts 'billing', 'shipping'; name the one to adopt with --vhost");
        assertThatThrownBy(() -> Definitions.read(file, Optional.of("orders")))
                .hasMessage(file + ": holds no virtual host 'orders'; it holds 'billing', 'shipping'");
        assertThat(Definitions.read(file, Optional.of("shipping")).queues())
                .extracting(Definitions.Queue::name).containsExactly("parcels");
    }

    @Test
    void anEmptyVirtualHostGetsADraftOfCommentsOnlyThatSaysWhy() throws IOException {
        Adoption adoption = adopt("empty");

        assertThat(adoption.hasServices()).isFalse();
        assertThat(adoption.clean()).isFalse();
        assertThat(adoption.spec().lines()).allMatch(line -> line.isEmpty() || line.startsWith("#"));
        assertThat(adoption.spec()).contains("The virtual host '/' has no retry structure")
                .contains("(it has no queue at all)");
        assertThat(adoption.record().services()).isEmpty();
    }

    @Test
    void aVirtualHostWithoutRetryStructureListsWhatItHolds() throws IOException {
        Adoption adoption = adopt("no-retry-structure");

        assertThat(adoption.hasServices()).isFalse();
        assertThat(adoption.spec().lines()).allMatch(line -> line.isEmpty() || line.startsWith("#"));
        assertThat(adoption.record().unmapped()).containsExactly(
                new Listed("exchange", "billing", "routes only to what belongs to no retry structure ('invoices')"),
                new Listed("queue", "invoices", "belongs to no retry structure: nothing dead-letters into it or out of "
                        + "it back to a work queue, and it is bound to 'billing'"));
        assertThat(adoption.spec()).contains("# - queue 'invoices': belongs to no retry structure");
    }

    @Test
    void aWaitQueueThatDeadLettersToSeveralQueuesIsListedNotGuessed() throws IOException {
        Adoption adoption = adopt("ambiguous-dead-letter");

        assertThat(adoption.hasServices()).isFalse();
        assertThat(adoption.record().unmapped()).contains(new Listed("queue", "orders.wait", "has a TTL (5s, argument "
                + "x-message-ttl) and dead-letters through exchange 'orders' with the message's own routing key, which "
                + "reaches queues 'billing', 'shipping'; a wait queue of the spec returns a retry to the failing service "
                + "only"));
    }

    @Test
    void aRetryThatReachesAnotherConsumerThroughTheSharedExchangeIsListed() throws IOException {
        Adoption adoption = adopt("retry-reaches-another-queue");

        assertThat(adoption.record().unmapped()).extracting(Listed::name)
                .contains("ucenter@user@retry", "ucenter@user", "audit.log");
        assertThat(adoption.record().unmapped()).filteredOn(listed -> listed.name().equals("ucenter@user@retry"))
                .singleElement().extracting(Listed::reason).asString()
                .contains("which reaches queues 'audit.log', 'ucenter@user'");
    }

    @Test
    void aShovelAPolicyOfNothingAndAStrayQueueAreListedBesideADraftTheModelReads() throws IOException {
        Adoption adoption = adopt("shovel-and-stray-queue");

        assertThat(adoption.hasServices()).isTrue();
        assertThat(adoption.clean()).isFalse();
        assertThat(adoption.record().unmapped()).containsExactly(
                new Listed("exchange", "audit", "routes only to what belongs to no retry structure ('audit.log')"),
                new Listed("policy", "lazy", "matches no queue or exchange (pattern '^nothing-here$', applies to "
                        + "queues)"),
                new Listed("queue", "audit.log", "belongs to no retry structure: nothing dead-letters into it or out "
                        + "of it back to a work queue, and it is bound to 'audit'"),
                new Listed("shovel", "to-archive", "a dynamic shovel from queue 'ucenter@user@failed' to queue "
                        + "'archive' of amqp://archivist:***@archive.example.com: it moves messages on its own, and "
                        + "adopt leaves it"));
        assertThat(adoption.spec()).contains("# Left unmapped (4)").contains("# - shovel 'to-archive'")
                .doesNotContain("secret");
        assertThat(Specs.parse(adoption.spec().getBytes(StandardCharsets.UTF_8), "retry.yml").services())
                .singleElement().satisfies(service -> assertThat(service.queue()).isEqualTo("ucenter@user"));
    }

    @Test
    void aQueueWithoutTtlIsNeitherWaitNorWorkQueueWhenNothingTells() throws IOException {
        Adoption adoption = adopt("undecided");

        assertThat(adoption.hasServices()).isFalse();
        assertThat(adoption.record().unmapped()).contains(
                new Listed("queue", "queue-a", "is where 'queue-b' dead-letters (see there)"),
                new Listed("queue", "queue-b", "has no TTL and dead-letters through exchange 'exchange-a' with the "
                        + "message's own routing key into 'queue-a': either it waits for a TTL its publisher sets on "
                        + "each message and 'queue-a' is the work queue, or it is the work queue and 'queue-a' keeps "
                        + "its failed messages; nothing in the broker tells which"));
    }

    @Test
    void theConsumersTheBrokerCountedTellTheWaitQueueFromTheWorkQueue() throws IOException {
        Definitions definitions = Definitions.read(BAD.resolve("undecided.json"), Optional.empty());

        Adoption waiting = Adopter.adopt(definitions.withConsumers(Map.of("queue-a", 2L)), AdoptOptions.defaults());
        Adoption failing = Adopter.adopt(definitions.withConsumers(Map.of("queue-b", 1L)), AdoptOptions.defaults());

        assertThat(waiting.record().queue("queue-b")).hasValueSatisfying(queue -> {
            assertThat(queue.role()).isEqualTo(AdoptionRecord.Role.WAIT);
            assertThat(queue.service()).isEqualTo("queue-a");
        });
        assertThat(comments(waiting.spec())).contains("It is taken for a wait queue, not for the work queue, as 'queue-a' has "
                + "consumers and it has none.");
        assertThat(failing.record().queue("queue-a")).hasValueSatisfying(queue -> {
            assertThat(queue.role()).isEqualTo(AdoptionRecord.Role.FAILED);
            assertThat(queue.service()).isEqualTo("queue-b");
        });
    }

    @Test
    void policiesThatWouldApplyToTheSpecsOwnQueuesAndAQueueOfTheSpecThatExistsAreProblems() throws IOException {
        Adoption adoption = adopt("policy-over-the-spec");

        assertThat(adoption.hasServices()).isTrue();
        assertThat(adoption.record().problems()).containsExactly(
                new Listed("operator-policy", "cap-parking-lots", "would apply to the spec's queues "
                        + "'ucenter-user.parking-lot' beside the spec's policies, setting max-length"),
                new Listed("policy", "everything", "has priority 200, not below the spec's 100, and would apply to the "
                        + "spec's queues 'ucenter-user.parking-lot', 'ucenter-user.retry.1', 'ucenter@user' in place of "
                        + "their own"),
                new Listed("queue", "ucenter-user.parking-lot", "is a queue that the spec declares for service "
                        + "'ucenter-user', and the virtual host has it already, as a queue outside any retry structure"));
    }

    /** A draft's comments as sentences: each comment's wrapped lines joined. */
    static String comments(String spec) {
        return spec.replaceAll("\\n *# +", " ");
    }

    private static Adoption adopt(String name) throws IOException {
        return Adopter.adopt(Definitions.read(BAD.resolve(name + ".json"), Optional.empty()), AdoptOptions.defaults());
    }
}
