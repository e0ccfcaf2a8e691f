package io.github.retrytopology.operations.console;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.decision.Durations;
import io.github.retrytopology.model.internal.PolicyText;
import java.util.ArrayList;
import java.util.List;

/**
 * A picture of a spec's retry topology, for the on-call console: the topic exchange at the left and, one row per
 * service in the spec's order, the service's queue, its tier queues and its parking lot. The arrows carry the
 * routing keys, the failures that lead to each queue and the delays back, worded as the plugin's Mermaid flowchart
 * ({@code topology.md}) words them, so that the console and the generated documentation say the same.
 *
 * <p>The console serves it as {@code image/svg+xml} into an {@code <img>} under a content security policy that
 * forbids anything external, so the picture is one SVG document that needs nothing else: no script, no link, no
 * font but the system's, no {@code foreignObject}, and presentation attributes rather than CSS. With no font
 * metrics at hand, a text's width is estimated from its length. Every text comes from a user's YAML and is
 * escaped. The document grows linearly with the spec: 200 services or 50 tiers make a large picture, not a slow one.
 */
final class TopologyPicture {

    private static final String SVG_NAMESPACE = "http://www.w3.org/2000/svg";
    private static final double CHAR_WIDTH = 7.2;
    private static final int LINE = 15;
    private static final int ASCENT = 11;
    private static final int PAD = 10;
    private static final int MARGIN = 20;
    private static final int BOX_HEIGHT = 2 * LINE + 12;
    private static final int HALF = BOX_HEIGHT / 2;
    /** The width over which the exchange's arrows fan out to the rows. */
    private static final int FAN = 90;
    private static final int GAP = 36;
    /** From a box to the line that the failures run along above it, or the returns below it. */
    private static final int DROP = 26;
    private static final int LOOP = 40;
    private static final int ROW_GAP = 22;
    private static final int MAX_KEYS = 4;
    private static final String EDGE = "#64748b";
    private static final String INK = "#1e293b";

    private static final Kind EXCHANGE = new Kind("#fde68a", "#b45309", HALF);
    private static final Kind QUEUE = new Kind("#bfdbfe", "#1d4ed8", 4);
    private static final Kind TIER = new Kind("#e9d5ff", "#7e22ce", 10);
    private static final Kind PARKING_LOT = new Kind("#fecaca", "#b91c1c", 10);

    private TopologyPicture() {
    }

    /** How a kind of box looks. */
    private record Kind(String fill, String stroke, int radius) {
    }

    /** A box after a service's queue: a tier queue or the parking lot, and the labels of the arrows to it and back. */
    private record Step(Kind kind, List<String> box, List<String> failed, List<String> back) {
    }

    /** One service's row, in words, before it is placed. */
    private record Row(List<String> keys, String queue, List<Step> steps, List<String> loop) {

        boolean viaTiers() {
            return steps.size() > 1;
        }

        int above() {
            int failures = steps.stream().mapToInt(step -> step.failed().size()).max().orElse(0) * LINE;
            int labels = viaTiers() ? HALF + DROP + 5 + failures : failures + 6;
            return Math.max(Math.max(HALF, keys.size() * LINE + 6), labels);
        }

        int below() {
            if (viaTiers()) {
                return HALF + DROP + 4 + LINE;
            }
            return HALF + (loop.isEmpty() ? 0 : LOOP + 2 + loop.size() * LINE);
        }
    }

    /**
     * Draws the spec's topology.
     *
     * @return a standalone SVG document, UTF-8 text with its XML declaration
     */
    public static String svg(RetrySpec spec) {
        List<Row> rows = spec.services().stream().map(TopologyPicture::row).toList();
        List<String> title = List.of("Retry topology of " + spec.exchange() + " in virtual host " + spec.vhost(),
                "Solid arrows are routing, dotted ones are failures and retries.");
        List<String> exchange = List.of(spec.exchange(), "topic exchange");
        int exchangeWidth = width(exchange) + 2 * PAD + HALF;
        int keysWidth = rows.stream().mapToInt(row -> width(row.keys())).max().orElse(0);
        int runStart = MARGIN + exchangeWidth + FAN;
        int queueX = runStart + Math.max(keysWidth + 20, 40);

        int[] axes = new int[rows.size()];
        int y = MARGIN + title.size() * LINE + 16;
        int rowsTop = y;
        for (int index = 0; index < rows.size(); index++) {
            axes[index] = y + rows.get(index).above();
            y = axes[index] + rows.get(index).below() + ROW_GAP;
        }
        int height = y - ROW_GAP + MARGIN;
        int exchangeY = (rowsTop + y - ROW_GAP) / 2 - HALF;

        StringBuilder body = new StringBuilder(4096 + rows.size() * 2048);
        int right = MARGIN + width(title) * 13 / 12;
        for (int index = 0; index < rows.size(); index++) {
            int start = exchangeY + 6 + (BOX_HEIGHT - 12) * (2 * index + 1) / (2 * rows.size());
            body.append("<path d=\"M").append(MARGIN + exchangeWidth).append(',').append(start)
                    .append(" C").append(runStart - FAN / 3).append(',').append(start)
                    .append(' ').append(MARGIN + exchangeWidth + FAN / 3).append(',').append(axes[index])
                    .append(' ').append(runStart).append(',').append(axes[index])
                    .append(" H").append(queueX).append("\" marker-end=\"url(#arrow)\"/>\n");
            text(body, runStart + 10, axes[index] - 4 - rows.get(index).keys().size() * LINE, "start",
                    rows.get(index).keys(), true);
            right = Math.max(right, drawRow(body, rows.get(index), queueX, axes[index]));
        }
        box(body, MARGIN, exchangeY, exchangeWidth, EXCHANGE, exchange);
        int width = right + MARGIN;

        StringBuilder svg = new StringBuilder(body.length() + 2048);
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"").append(SVG_NAMESPACE)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" width=\"").append(width)
                .append("\" height=\"").append(height).append("\" font-family=\"system-ui, sans-serif\" font-size=\"12\""
                        + " fill=\"none\" stroke=\"").append(EDGE).append("\" stroke-width=\"1.4\">\n<title>");
        escape(svg, title.get(0));
        svg.append("</title>\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\""
                + " markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"").append(EDGE)
                .append("\" stroke=\"none\"/></marker></defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\""
                        + " stroke=\"none\"/>\n");
        svg.append("<text x=\"").append(MARGIN).append("\" y=\"").append(MARGIN + ASCENT).append("\" fill=\"").append(INK)
                .append("\" stroke=\"none\" font-size=\"13\" font-weight=\"600\">");
        escape(svg, title.get(0));
        svg.append("</text>\n");
        text(svg, MARGIN, MARGIN + LINE + 2, "start", title.subList(1, 2), false);
        return svg.append(body).append("</svg>\n").toString();
    }

    private static Row row(Service service) {
        List<Tier> tiers = service.tiers();
        List<Step> steps = new ArrayList<>(tiers.size() + 1);
        for (Tier tier : tiers) {
            String delay = Durations.format(tier.delay());
            steps.add(new Step(TIER, List.of(tier.queue(), "TTL " + delay),
                    List.of(PolicyText.tierCause(service, tier)), List.of("after " + delay)));
        }
        steps.add(new Step(PARKING_LOT, List.of(service.parkingLot()), PolicyText.parkCauses(service), List.of()));
        List<String> loop = PolicyText.brokerRetryCause(service)
                .map(cause -> List.of(cause + ":", "the broker holds it back " + PolicyText.brokerDelays(service)))
                .orElse(List.of());
        List<String> keys = service.routes().stream().map(route -> route.key().value()).toList();
        if (keys.size() > MAX_KEYS) {
            List<String> shown = new ArrayList<>(keys.subList(0, MAX_KEYS - 1));
            shown.add("+" + (keys.size() - MAX_KEYS + 1) + " more");
            keys = shown;
        }
        return new Row(List.copyOf(keys), service.queue(), List.copyOf(steps), loop);
    }

    /** Draws a row whose queue's box is at {@code queueX}, centred on {@code axis}; returns where it ends at the right. */
    private static int drawRow(StringBuilder out, Row row, int queueX, int axis) {
        int queueWidth = width(List.of(row.queue())) + 2 * PAD;
        int queueCentre = queueX + queueWidth / 2;
        box(out, queueX, axis - HALF, queueWidth, QUEUE, List.of(row.queue()));
        if (!row.viaTiers()) {
            Step park = row.steps().get(0);
            int gap = Math.max(GAP, width(park.failed()) + 24);
            int parkX = queueX + queueWidth + gap;
            out.append("<path d=\"M").append(queueX + queueWidth).append(',').append(axis).append(" H").append(parkX)
                    .append("\" stroke-dasharray=\"5 4\" marker-end=\"url(#arrow)\"/>\n");
            text(out, parkX - gap / 2, axis - 6 - park.failed().size() * LINE, "middle", park.failed(), true);
            int parkWidth = width(park.box()) + 2 * PAD;
            box(out, parkX, axis - HALF, parkWidth, park.kind(), park.box());
            if (!row.loop().isEmpty()) {
                int bottom = axis + HALF;
                out.append("<path d=\"M").append(queueCentre - 16).append(',').append(bottom)
                        .append(" C").append(queueCentre - 56).append(',').append(bottom + LOOP)
                        .append(' ').append(queueCentre + 56).append(',').append(bottom + LOOP)
                        .append(' ').append(queueCentre + 16).append(',').append(bottom)
                        .append("\" stroke-dasharray=\"5 4\" marker-end=\"url(#arrow)\"/>\n");
                text(out, queueX, bottom + LOOP + 2, "start", row.loop(), true);
            }
            return Math.max(parkX + parkWidth, queueX + width(row.loop()));
        }
        int busY = axis - HALF - DROP;
        int returnY = axis + HALF + DROP;
        int x = queueX + queueWidth + GAP;
        int lastCentre = 0;
        int lastTierCentre = 0;
        for (Step step : row.steps()) {
            int boxWidth = width(step.box()) + 2 * PAD;
            int column = Math.max(boxWidth, Math.max(width(step.failed()), width(step.back())) + 8);
            int centre = x + column / 2;
            out.append("<path d=\"M").append(centre).append(',').append(busY).append(" V").append(axis - HALF)
                    .append("\" stroke-dasharray=\"5 4\" marker-end=\"url(#arrow)\"/>\n");
            text(out, centre, busY - 5 - step.failed().size() * LINE, "middle", step.failed(), true);
            if (!step.back().isEmpty()) {
                out.append("<path d=\"M").append(centre).append(',').append(axis + HALF).append(" V").append(returnY)
                        .append("\" stroke-dasharray=\"5 4\"/>\n");
                text(out, centre, returnY + 4, "middle", step.back(), true);
                lastTierCentre = centre;
            }
            box(out, centre - boxWidth / 2, axis - HALF, boxWidth, step.kind(), step.box());
            lastCentre = centre;
            x += column + GAP;
        }
        out.append("<path d=\"M").append(queueCentre).append(',').append(axis - HALF).append(" V").append(busY)
                .append(" H").append(lastCentre).append("\" stroke-dasharray=\"5 4\"/>\n");
        out.append("<path d=\"M").append(lastTierCentre).append(',').append(returnY).append(" H").append(queueCentre)
                .append(" V").append(axis + HALF).append("\" stroke-dasharray=\"5 4\" marker-end=\"url(#arrow)\"/>\n");
        return x - GAP;
    }

    private static void box(StringBuilder out, int x, int y, int width, Kind kind, List<String> lines) {
        out.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(width)
                .append("\" height=\"").append(BOX_HEIGHT).append("\" rx=\"").append(kind.radius()).append("\" fill=\"")
                .append(kind.fill()).append("\" stroke=\"").append(kind.stroke()).append("\"/>\n");
        text(out, x + width / 2, y + HALF - lines.size() * LINE / 2, "middle", lines, false);
    }

    /** Writes lines of text whose first line's top is at {@code top}; a halo keeps a label readable over a line. */
    private static void text(StringBuilder out, int x, int top, String anchor, List<String> lines, boolean halo) {
        if (lines.isEmpty()) {
            return;
        }
        out.append("<text x=\"").append(x).append("\" y=\"").append(top + ASCENT).append("\" text-anchor=\"")
                .append(anchor).append("\" fill=\"").append(INK).append(halo
                        ? "\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">"
                        : "\" stroke=\"none\">");
        for (int index = 0; index < lines.size(); index++) {
            out.append("<tspan x=\"").append(x).append("\" dy=\"").append(index == 0 ? 0 : LINE).append("\">");
            escape(out, lines.get(index));
            out.append("</tspan>");
        }
        out.append("</text>\n");
    }

    /** The estimated width of the longest line, at 12 px. */
    private static int width(List<String> lines) {
        int longest = 0;
        for (String line : lines) {
            longest = Math.max(longest, line.codePointCount(0, line.length()));
        }
        return (int) Math.ceil(longest * CHAR_WIDTH);
    }

    /** Appends text as XML character data or an attribute value; what XML 1.0 cannot hold becomes U+FFFD. */
    private static void escape(StringBuilder out, String text) {
        for (int index = 0; index < text.length(); index++) {
            char c = text.charAt(index);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(c < 0x20 || c == 0xFFFE || c == 0xFFFF ? '\uFFFD' : c);
            }
        }
    }
}
