package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.Tier;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.runtime.testing.Patience;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

/** The console's picture of a topology, read back as the XML a browser would read. */
class TopologyPictureTest {

    private static final String SVG = "http://www.w3.org/2000/svg";

    private static final String ORDERS = """
            version: 1
            package: com.acme.orders
            vhost: orders
            exchange: orders.events
            defaults:
              maxAttempts: 6
              delays: [10s, 100s, 1h]
              nonRetryable: [java.lang.IllegalArgumentException]
            services:
              email:
                routingKeys: [order.created, order.paid]
              finance:
                routingKeys: [order.completed]
                maxAttempts: 2
                delays: [5s]
              audit:
                routingKeys: [order.a, order.b, order.c, order.d, order.e, order.f]
                maxAttempts: 1
            """;

    @Test
    void isAWellFormedSvgDocument() throws Exception {
        Document picture = parse(TopologyPicture.svg(spec(ORDERS)));

        Element root = picture.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo(SVG);
        assertThat(root.getAttribute("viewBox")).isEqualTo("0 0 " + root.getAttribute("width") + " "
                + root.getAttribute("height"));
    }

    @Test
    void namesEveryQueueTierQueueAndParkingLot() throws Exception {
        RetrySpec spec = spec(ORDERS);

        List<String> texts = texts(parse(TopologyPicture.svg(spec)));

        assertThat(texts).contains("orders.events", "topic exchange");
        for (Service service : spec.services()) {
            assertThat(texts).contains(service.queue(), service.parkingLot());
            for (Tier tier : service.tiers()) {
                assertThat(texts).contains(tier.queue());
            }
        }
        assertThat(texts).contains("email.retry.3", "TTL 1h", "after 1m40s");
    }

    @Test
    void labelsTheArrowsAsThePluginsDiagramDoes() throws Exception {
        List<String> texts = texts(parse(TopologyPicture.svg(spec(ORDERS))));

        assertThat(texts).contains("attempt 1 failed", "attempt 2 failed", "attempts 3 to 5 failed",
                "attempt 6 failed", "or non-retryable", "or crashed its consumer 6 times", "attempt 2 failed",
                "or crashed its consumer 1 time");
        assertThat(texts).doesNotContain("attempt 3 failed");
    }

    @Test
    void showsThreeRoutingKeysAndHowManyMoreBeyondFour() throws Exception {
        List<String> texts = texts(parse(TopologyPicture.svg(spec(ORDERS))));

        assertThat(texts).contains("order.created", "order.paid", "order.completed", "order.a", "order.b", "order.c",
                "+3 more");
        assertThat(texts).doesNotContain("order.d", "order.f");
    }

    @Test
    void escapesMarkupInNamesAndRoutingKeys() throws Exception {
        RetrySpec spec = spec("""
                version: 1
                package: com.acme
                exchange: 'a<b>&"c''d'
                defaults:
                  maxAttempts: 1
                services:
                  orders:
                    routingKeys: ['order.<&">', "it's.&amp;"]
                """);

        String svg = TopologyPicture.svg(spec);
        List<String> texts = texts(parse(svg));

        assertThat(texts).contains("a<b>&\"c'd", "order.<&\">", "it's.&amp;");
        assertThat(svg).doesNotContain("a<b", "order.<", "it's");
    }

    @Test
    void drawsTheBrokersDelayAsALoopOnTheQueueWithoutTiers() throws Exception {
        Document picture = parse(TopologyPicture.svg(spec("""
                version: 1
                package: com.acme
                exchange: chaos.events
                defaults:
                  maxAttempts: 4
                  delays: [50ms, 100ms, 150ms]
                services:
                  work:
                    routingKeys: [work.item]
                    delayBy: broker
                """)));
        List<String> texts = texts(picture);

        assertThat(texts).contains("attempts 1 to 3 failed or crashed:",
                "the broker holds it back 50ms × the retry's number, up to 150ms",
                "attempt 4 failed", "or crashed its consumer", "work", "work.parking-lot");
        assertThat(texts).noneMatch(text -> text.contains(".retry.") || text.startsWith("TTL ")
                || text.startsWith("after "));
        NodeList paths = picture.getElementsByTagNameNS(SVG, "path");
        List<String> curves = new ArrayList<>();
        for (int index = 0; index < paths.getLength(); index++) {
            String path = ((Element) paths.item(index)).getAttribute("d");
            if (path.contains(" C")) {
                curves.add(path);
            }
        }
        assertThat(curves).as("the exchange's arrow and the loop").hasSize(2);
    }

    @Test
    void growsInHeightNotInWidthWithMoreServices() throws Exception {
        Element one = parse(TopologyPicture.svg(spec(services(1, 3)))).getDocumentElement();
        Element forty = parse(TopologyPicture.svg(spec(services(40, 3)))).getDocumentElement();

        assertThat(forty.getAttribute("width")).isEqualTo(one.getAttribute("width"));
        assertThat(Integer.parseInt(forty.getAttribute("height")))
                .isGreaterThan(30 * Integer.parseInt(one.getAttribute("height")) / 2);
    }

    @Test
    void growsInWidthWithMoreTiers() throws Exception {
        Element three = parse(TopologyPicture.svg(spec(services(1, 3)))).getDocumentElement();
        Element fifty = parse(TopologyPicture.svg(spec(services(1, 50)))).getDocumentElement();

        assertThat(Integer.parseInt(fifty.getAttribute("width")))
                .isGreaterThan(10 * Integer.parseInt(three.getAttribute("width")) / 2);
        assertThat(fifty.getAttribute("height")).isEqualTo(three.getAttribute("height"));
    }

    @Test
    @Timeout(value = Patience.WAIT_SECONDS, unit = TimeUnit.SECONDS)
    void drawsTheLargestSpecWhole() throws Exception {
        RetrySpec spec = spec(services(200, 48));

        Document picture = parse(TopologyPicture.svg(spec));

        assertThat(picture.getElementsByTagNameNS(SVG, "rect").getLength()).isEqualTo(1 + 1 + 200 * (2 + 48));
        assertThat(texts(picture)).contains("service-200.retry.48", "service-200.parking-lot");
    }

    @Test
    void needsNothingOutsideItself() throws Exception {
        Document picture = parse(TopologyPicture.svg(spec(ORDERS)));

        NodeList elements = picture.getElementsByTagName("*");
        for (int index = 0; index < elements.getLength(); index++) {
            Element element = (Element) elements.item(index);
            assertThat(element.getNamespaceURI()).isEqualTo(SVG);
            assertThat(element.getLocalName()).isNotIn("script", "foreignObject", "image", "a", "style", "use");
            NamedNodeMap attributes = element.getAttributes();
            for (int at = 0; at < attributes.getLength(); at++) {
                Attr attribute = (Attr) attributes.item(at);
                assertThat(attribute.getLocalName()).isNotIn("href", "style").doesNotStartWith("on");
                if (attribute.getValue().contains("url(")) {
                    assertThat(attribute.getValue()).isEqualTo("url(#arrow)");
                }
            }
        }
    }

    private static RetrySpec spec(String yaml) {
        return Specs.parse(yaml.getBytes(StandardCharsets.UTF_8), "retry.yml");
    }

    /** A spec of {@code count} services named alike, each retrying through {@code tiers} tier queues. */
    private static String services(int count, int tiers) {
        List<String> delays = new ArrayList<>();
        for (int tier = 1; tier <= tiers; tier++) {
            delays.add(tier + "s");
        }
        StringBuilder yaml = new StringBuilder("""
                version: 1
                package: com.acme
                exchange: many.events
                defaults:
                  maxAttempts: %d
                  delays: [%s]
                services:
                """.formatted(tiers + 1, String.join(", ", delays)));
        for (int service = 1; service <= count; service++) {
            String name = "service-%03d".formatted(service);
            yaml.append("  ").append(name).append(":\n    routingKeys: [").append(name).append(".created]\n");
        }
        return yaml.toString();
    }

    /** Reads the picture as a browser's XML parser would, refusing any DTD or external entity. */
    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** Every line of text in the picture, one per {@code tspan}, as a browser shows it. */
    private static List<String> texts(Document picture) {
        NodeList lines = picture.getElementsByTagNameNS(SVG, "tspan");
        List<String> texts = new ArrayList<>(lines.getLength());
        for (int index = 0; index < lines.getLength(); index++) {
            texts.add(lines.item(index).getTextContent());
        }
        NodeList title = picture.getElementsByTagNameNS(SVG, "title");
        for (int index = 0; index < title.getLength(); index++) {
            texts.add(title.item(index).getTextContent());
        }
        return texts;
    }
}
