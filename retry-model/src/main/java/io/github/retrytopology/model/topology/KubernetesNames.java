package io.github.retrytopology.model.topology;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The names of the RabbitMQ messaging-topology-operator's resources for a topology's objects: the one place they
 * are derived, for the generator that writes the resources and the validator that refuses a spec where two objects
 * of one kind would have one name.
 *
 * <p>A Kubernetes resource name is a DNS-1123 subdomain: at most 253 characters, lower-case letters, digits,
 * {@code -} and {@code .}, each dot-separated label starting and ending with a letter or digit. A broker name
 * ({@code cdn-purge.retry.1}) that is one stays as it is; any other is lower-cased, every run of other characters
 * becomes {@code -}, and labels lose the hyphens at their ends and the empty ones go. A name longer than
 * {@link #MAX_LENGTH} is cut and ends with eight hex digits of its broker name's SHA-256; one with nothing left
 * is those eight digits alone. A binding is named after its queue and its routing key, wildcards spelt as words:
 * {@code ticketing.order.star.failed}. Two names may still meet ({@code Billing} and {@code billing}): the
 * validator refuses such a spec.
 */
public final class KubernetesNames {

    /** The longest name derived here, which leaves room for a prefix of {@link #MAX_PREFIX_LENGTH}. */
    public static final int MAX_LENGTH = 190;

    /** The longest prefix a build may put before every name, within the 253 characters Kubernetes allows. */
    public static final int MAX_PREFIX_LENGTH = 63;

    /** The longest resource name Kubernetes takes: a DNS-1123 subdomain. */
    public static final int MAX_SUBDOMAIN_LENGTH = 253;

    private static final Pattern SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern OTHER = Pattern.compile("[^a-z0-9-]+");
    private static final int HASH_DIGITS = 8;

    private KubernetesNames() {
    }

    /** The resource name of a broker object's name: a queue's, policy's, exchange's, virtual host's or user's. */
    public static String of(String brokerName) {
        StringBuilder name = new StringBuilder();
        for (String label : brokerName.toLowerCase(Locale.ROOT).split("\\.", -1)) {
            String clean = OTHER.matcher(label).replaceAll("-").replaceAll("^-+|-+$", "");
            if (!clean.isEmpty()) {
                name.append(name.length() == 0 ? "" : ".").append(clean);
            }
        }
        if (name.length() == 0) {
            return hash(brokerName);
        }
        if (name.length() > MAX_LENGTH) {
            String cut = name.substring(0, MAX_LENGTH - HASH_DIGITS - 1).replaceAll("[-.]+$", "");
            return cut + "-" + hash(brokerName);
        }
        return name.toString();
    }

    /** The resource name of a queue: its name's. */
    public static String queue(Queue queue) {
        return of(queue.name());
    }

    /** The resource name of a policy: its name's. */
    public static String policy(Policy policy) {
        return of(policy.name());
    }

    /** The resource name of an exchange: its name's. */
    public static String exchange(Exchange exchange) {
        return of(exchange.name());
    }

    /**
     * The resource name of a binding: its queue's name and its routing key, with {@code *} spelt {@code star} and
     * {@code #} spelt {@code hash}. The exchange is left out: a topology has one.
     */
    public static String binding(Binding binding) {
        return of(binding.queue() + "." + binding.routingKey().replace("*", "star").replace("#", "hash"));
    }

    /** Whether a name is one Kubernetes takes for a resource: a DNS-1123 subdomain. */
    public static boolean isName(String name) {
        return name.length() <= MAX_SUBDOMAIN_LENGTH && SUBDOMAIN.matcher(name).matches();
    }

    private static String hash(String brokerName) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(brokerName.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
