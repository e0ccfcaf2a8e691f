package io.github.retrytopology.maven.generator;

import static java.util.Objects.requireNonNull;

import io.github.retrytopology.model.topology.KubernetesNames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How to write the RabbitMQ messaging-topology-operator's resources of a spec, checked whole: every value is one
 * Kubernetes takes, and each problem names the plugin parameter that holds it.
 *
 * @param cluster the RabbitmqCluster the resources are declared in: a name (and a namespace), or a secret
 * @param namePrefix put before every resource's name, such as {@code orders-}; may be empty
 * @param namespace the namespace the resources go in; empty for the one {@code kubectl} or a kustomization gives
 * @param labels the labels of every resource, in key order
 * @param deletionPolicy what deleting a Queue or Vhost resource does to the broker's object: {@code retain} or
 *     {@code delete}
 * @param vhost whether to write a Vhost resource for the spec's virtual host
 * @param user the user to write a Permission for, the one the consumers connect as; empty for none
 */
public record KubernetesOutput(ClusterReference cluster, String namePrefix, Optional<String> namespace,
        Map<String, String> labels, String deletionPolicy, boolean vhost, Optional<String> user) {

    /** The parameter that turns the output on. */
    public static final String ENABLED = "kubernetes";
    /** The parameter of the RabbitmqCluster's name. */
    public static final String CLUSTER = "kubernetesCluster";
    /** The parameter of the RabbitmqCluster's namespace. */
    public static final String CLUSTER_NAMESPACE = "kubernetesClusterNamespace";
    /** The parameter of the secret that holds the management API's URI and credentials. */
    public static final String CONNECTION_SECRET = "kubernetesConnectionSecret";
    /** The parameter of the prefix of every resource's name. */
    public static final String NAME_PREFIX = "kubernetesNamePrefix";
    /** The parameter of the resources' namespace. */
    public static final String NAMESPACE = "kubernetesNamespace";
    /** The parameter of the resources' labels. */
    public static final String LABELS = "kubernetesLabels";
    /** The parameter of the Queue and Vhost resources' deletion policy. */
    public static final String DELETION_POLICY = "kubernetesDeletionPolicy";
    /** The parameter that asks for a Vhost resource. */
    public static final String VHOST = "kubernetesVhost";
    /** The parameter of the consumers' user, who gets a Permission resource. */
    public static final String USER = "kubernetesUser";

    /** The deletion policies the operator takes. */
    public static final Set<String> DELETION_POLICIES = Set.of("retain", "delete");

    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final int MAX_LABEL = 63;

    public KubernetesOutput {
        requireNonNull(cluster, "cluster");
        requireNonNull(namePrefix, "namePrefix");
        requireNonNull(namespace, "namespace");
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        requireNonNull(deletionPolicy, "deletionPolicy");
        requireNonNull(user, "user");
        List<String> problems = problems(cluster, namePrefix, namespace, labels, deletionPolicy, user);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("The Kubernetes output cannot be written: " + String.join("; ", problems));
        }
    }

    /**
     * The RabbitmqCluster the operator declares the resources in: one it runs, by name and (unless it is the
     * resources' own) namespace, or any cluster whose management API a secret names.
     *
     * @param name the RabbitmqCluster's name; empty when a secret names the cluster
     * @param namespace the RabbitmqCluster's namespace; empty for the resources' own
     * @param connectionSecret the secret holding {@code uri}, {@code username} and {@code password}
     */
    public record ClusterReference(Optional<String> name, Optional<String> namespace, Optional<String> connectionSecret) {

        public ClusterReference {
            requireNonNull(name, "name");
            requireNonNull(namespace, "namespace");
            requireNonNull(connectionSecret, "connectionSecret");
        }
    }

    private static List<String> problems(ClusterReference cluster, String prefix, Optional<String> namespace,
            Map<String, String> labels, String deletionPolicy, Optional<String> user) {
        List<String> problems = new ArrayList<>();
        if (cluster.name().isPresent() == cluster.connectionSecret().isPresent()) {
            problems.add("set " + CLUSTER + " (the name of the RabbitmqCluster) or " + CONNECTION_SECRET + " (a secret "
                    + "with the management API's uri, username and password), one of them: the operator takes one");
        }
        cluster.name().filter(name -> !KubernetesNames.isName(name)).ifPresent(name -> problems.add(
                notName(CLUSTER, name)));
        cluster.connectionSecret().filter(name -> !KubernetesNames.isName(name)).ifPresent(name -> problems.add(
                notName(CONNECTION_SECRET, name)));
        cluster.namespace().ifPresent(clusterNamespace -> {
            if (cluster.connectionSecret().isPresent()) {
                problems.add(CLUSTER_NAMESPACE + " '" + clusterNamespace + "' goes with " + CLUSTER + ", not with "
                        + CONNECTION_SECRET + ", whose secret lies in the resources' namespace");
            } else if (!isLabel(clusterNamespace)) {
                problems.add(notNamespace(CLUSTER_NAMESPACE, clusterNamespace));
            }
        });
        namespace.filter(name -> !isLabel(name)).ifPresent(name -> problems.add(notNamespace(NAMESPACE, name)));
        if (!prefix.isEmpty() && (prefix.length() > KubernetesNames.MAX_PREFIX_LENGTH
                || !KubernetesNames.isName(prefix + "a"))) {
            problems.add(NAME_PREFIX + " '" + prefix + "' cannot start a Kubernetes resource name: expected at most "
                    + KubernetesNames.MAX_PREFIX_LENGTH + " lower-case letters, digits, '-' and '.', starting with a "
                    + "letter or digit, such as orders-");
        }
        labels.forEach((key, value) -> {
            if (!isLabelKey(key)) {
                problems.add(LABELS + " key '" + key + "' is not a label key: expected an optional DNS subdomain and "
                        + "'/', then at most " + MAX_LABEL + " letters, digits, '-', '_' and '.', starting and ending "
                        + "with a letter or digit, such as app.kubernetes.io/part-of");
            }
            if (!value.isEmpty() && (value.length() > MAX_LABEL || !LABEL_NAME.matcher(value).matches())) {
                problems.add(LABELS + " value '" + value + "' of '" + key + "' is not a label value: expected at "
                        + "most " + MAX_LABEL + " letters, digits, '-', '_' and '.', starting and ending with a letter "
                        + "or digit, or nothing");
            }
        });
        if (!DELETION_POLICIES.contains(deletionPolicy)) {
            problems.add(DELETION_POLICY + " '" + deletionPolicy + "' is not a deletion policy: expected retain or "
                    + "delete");
        }
        user.filter(String::isBlank).ifPresent(blank -> problems.add(USER + " is blank: name the user the "
                + "consumers connect as, or leave it out for no Permission resource"));
        return problems;
    }

    private static String notName(String parameter, String value) {
        return parameter + " '" + value + "' is not a Kubernetes name: expected at most "
                + KubernetesNames.MAX_SUBDOMAIN_LENGTH + " lower-case letters, digits, '-' and '.', starting and "
                + "ending with a letter or digit";
    }

    private static String notNamespace(String parameter, String value) {
        return parameter + " '" + value + "' is not a namespace: expected at most " + MAX_LABEL + " lower-case "
                + "letters, digits and '-', starting and ending with a letter or digit";
    }

    private static boolean isLabel(String name) {
        return name.length() <= MAX_LABEL && LABEL.matcher(name).matches();
    }

    private static boolean isLabelKey(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        boolean prefixed = slash < 0 || KubernetesNames.isName(key.substring(0, slash));
        return prefixed && name.length() <= MAX_LABEL && LABEL_NAME.matcher(name).matches();
    }

    /** Everything that decides the output, in one line, for the generator's fingerprint. */
    String fingerprint() {
        return String.join("\u0000", cluster.name().orElse(""), cluster.namespace().orElse(""),
                cluster.connectionSecret().orElse(""), namePrefix, namespace.orElse(""), labels.toString(),
                deletionPolicy, String.valueOf(vhost), user.map(name -> "user " + name).orElse(""));
    }
}
