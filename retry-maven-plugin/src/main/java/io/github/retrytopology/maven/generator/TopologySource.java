package io.github.retrytopology.maven.generator;

import io.github.retrytopology.model.Names;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.internal.PolicyText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The variables of {@code topology.java.ftl}: the class that holds every name and each service's model.
 *
 * <p>The models are read, when the class is initialized, from the text of the spec, which the class holds:
 * the same reader then builds the same model, with no Java code per route, delay or class name to compile.
 * What stays Java is what code uses by name: a constant per service, and a nested class of its queue names.
 * Every method and class thus stays small whatever the spec: the initializer holds one call per service, and
 * the text is cut into pieces that each fit a class file's constant.
 */
final class TopologySource {

    static final String TEMPLATE = "topology.java.ftl";

    /** Characters per piece of the spec's text: even at three bytes each, within a constant's 65,535. */
    static final int PIECE_CHARACTERS = 20_000;

    /** Lines per piece, so that no piece is a long chain of concatenations. */
    static final int PIECE_LINES = 200;

    private TopologySource() {
    }

    /**
     * @param javaPackage the package
     * @param imports the imports, sorted
     * @param generated how to write the {@code @Generated} annotation
     * @param generator the generator's name in it
     * @param name the class's name
     * @param sourceDoc the spec file's name, for Javadoc
     * @param sourceName the spec file's name, for the reader's messages
     * @param exchangeDoc the exchange, for Javadoc
     * @param types how to write each type the class uses
     * @param vhost the virtual host
     * @param exchange the exchange
     * @param definitions the resource name of the definitions
     * @param vhostDefinitions the resource name of the per-vhost definitions
     * @param diagram the resource name of the diagram
     * @param services the services, in the spec's order
     * @param specPieces the spec's text, in pieces, each a list of lines (the last may lack its line end)
     */
    public record Variables(String javaPackage, List<String> imports, String generated, String generator, String name,
            String sourceDoc, String sourceName, String exchangeDoc, Types types, String vhost, String exchange,
            String definitions, String vhostDefinitions, String diagram, List<ServiceConstants> services,
            List<List<String>> specPieces) {
    }

    /** How the class writes each type it uses: imported, or qualified where a nested class shadows it. */
    public record Types(String service, String retrySpec, String specs, String string, String standardCharsets) {
    }

    /**
     * @param constant the constant holding the service's model
     * @param name the service's name
     * @param nameDoc the service's name, for Javadoc
     * @param policyDoc the service and its retry policy, for Javadoc, in lines
     * @param nestedClass the nested class holding its queue names
     * @param queue its queue
     * @param tiers its tiers
     * @param parkingLot its parking lot
     * @param maxAttempts its maximum attempts
     * @param protocol the protocol its consumer speaks, as the spec writes it
     */
    public record ServiceConstants(String constant, String name, String nameDoc, List<String> policyDoc,
            String nestedClass, String queue, List<TierConstant> tiers, String parkingLot, int maxAttempts,
            String protocol) {
    }

    /**
     * @param number the tier's number
     * @param constant its constant's name
     * @param queue its queue
     * @param delayDoc its delay, for Javadoc
     */
    public record TierConstant(int number, String constant, String queue, String delayDoc) {
    }

    static GeneratedFile render(RetrySpec spec, String specText, Path directory, String generator, String sourceName) {
        List<String> declared = new ArrayList<>(List.of(Names.TOPOLOGY_CLASS));
        spec.services().forEach(service -> declared.add(service.javaType()));
        Imports imports = new Imports(spec.javaPackage(), declared);
        Types types = new Types(
                imports.reference("io.github.retrytopology.model.Service"),
                imports.reference("io.github.retrytopology.model.RetrySpec"),
                imports.reference("io.github.retrytopology.model.load.Specs"),
                imports.reference("java.lang.String"),
                imports.reference("java.nio.charset.StandardCharsets"));
        String generated = imports.reference("javax.annotation.processing.Generated");
        List<ServiceConstants> services = spec.services().stream().map(TopologySource::service).toList();
        Variables variables = new Variables(spec.javaPackage(), imports.imports(), generated, generator,
                Names.TOPOLOGY_CLASS, Javadoc.text(sourceName), sourceName, Javadoc.code(spec.exchange()), types,
                spec.vhost(), spec.exchange(), Resources.DEFINITIONS, Resources.VHOST_DEFINITIONS, Resources.DIAGRAM,
                services, pieces(specText));
        return GeneratedFile.of(directory.resolve(Names.TOPOLOGY_CLASS + ".java"), Templates.java(TEMPLATE, variables));
    }

    private static ServiceConstants service(Service service) {
        List<TierConstant> tiers = new ArrayList<>();
        for (Tier tier : service.tiers()) {
            tiers.add(new TierConstant(tier.number(), Names.tierConstant(tier.number()), tier.queue(),
                    Javadoc.text(Durations.format(tier.delay()))));
        }
        return new ServiceConstants(service.constant(), service.name(), Javadoc.code(service.name()),
                Javadoc.lines("Service " + Javadoc.code(service.name()) + ". " + Javadoc.text(PolicyText.describe(service)), 110),
                service.javaType(), service.queue(), tiers, service.parkingLot(), service.retryPolicy().maxAttempts(),
                service.protocol().id());
    }

    /**
     * Cuts the text into pieces of whole lines, at most {@link #PIECE_LINES} lines and {@link #PIECE_CHARACTERS}
     * characters each; a longer line is cut too, never between the halves of a surrogate pair.
     */
    static List<List<String>> pieces(String text) {
        List<List<String>> pieces = new ArrayList<>();
        List<String> piece = new ArrayList<>();
        int size = 0;
        int start = 0;
        while (start < text.length()) {
            int end = lineEnd(text, start);
            if (end - start > PIECE_CHARACTERS) {
                end = start + PIECE_CHARACTERS;
                if (Character.isLowSurrogate(text.charAt(end)) && Character.isHighSurrogate(text.charAt(end - 1))) {
                    end--;
                }
            }
            if (size + end - start > PIECE_CHARACTERS || piece.size() == PIECE_LINES) {
                pieces.add(List.copyOf(piece));
                piece.clear();
                size = 0;
            }
            piece.add(text.substring(start, end));
            size += end - start;
            start = end;
        }
        if (!piece.isEmpty() || pieces.isEmpty()) {
            pieces.add(List.copyOf(piece.isEmpty() ? List.of("") : piece));
        }
        return List.copyOf(pieces);
    }

    /** The index just past the line that starts here, its LF, CR or CR LF included. */
    private static int lineEnd(String text, int start) {
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                return i + 1;
            }
            if (c == '\r') {
                return i + 1 < text.length() && text.charAt(i + 1) == '\n' ? i + 2 : i + 1;
            }
        }
        return text.length();
    }
}
