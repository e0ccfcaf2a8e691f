package io.github.retrytopology.operations.console;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where the console learns who acts, the name each replay and purge records: one name given when it starts, for a
 * console on the loopback address that one person uses, or each request's user, as the authenticating proxy in front
 * of it names them in a header.
 */
public sealed interface OperatorSource permits OperatorSource.Named, OperatorSource.ProxyHeader {

    /** The most characters an operator's name has, from either source. */
    int MAX_NAME = 256;

    /** Every request acts in this name ({@code --as}). */
    static OperatorSource named(String name) {
        return new Named(name);
    }

    /** Each request acts in the name that the authenticating proxy in front sets in this header. */
    static OperatorSource header(String header) {
        return new ProxyHeader(header);
    }

    /**
     * One name for every request.
     *
     * @param name who replays and purges, written into every replayed message
     */
    record Named(String name) implements OperatorSource {

        public Named {
            requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("the operator is named, got a blank name");
            }
        }
    }

    /**
     * The name in a header that only an authenticating proxy sets: it is trusted because the proxy overwrites
     * whatever a client sent in it, and nothing but the proxy reaches the console.
     *
     * @param header the header's name, such as {@code X-Remote-User}
     */
    record ProxyHeader(String header) implements OperatorSource {

        /**
         * Headers that a browser or the console itself sets, or that carry credentials: naming one of them would
         * let a client choose the name, or write a password into every replayed message.
         */
        private static final Set<String> REFUSED = Set.of("host", "origin", "referer", "cookie", "authorization",
                "proxy-authorization", "content-type", "content-length", "connection", "user-agent",
                ConsoleApi.TOKEN_HEADER.toLowerCase(Locale.ROOT));

        public ProxyHeader {
            requireNonNull(header, "header");
            if (header.isEmpty() || !header.chars().allMatch(ProxyHeader::isTokenChar)) {
                throw new IllegalArgumentException("--operator-header is a header's name, such as X-Remote-User: "
                        + "letters, digits and !#$%&'*+-.^_`|~; got '" + header + "'");
            }
            String lower = header.toLowerCase(Locale.ROOT);
            if (REFUSED.contains(lower) || lower.startsWith("sec-")) {
                throw new IllegalArgumentException("--operator-header " + header + " is a header that browsers, the "
                        + "console or credentials use; name the one your proxy sets for its user, such as X-Remote-User");
            }
        }

        /**
         * Returns the operator a request names, from its values of this header (none if it has none).
         *
         * @throws ConsoleException 403 if it has none, several, or one that is not a name
         */
        String operatorOf(List<String> values) {
            if (values == null || values.isEmpty()) {
                throw new ConsoleException(403, "this console serves only through its authenticating proxy, which "
                        + "names you in the " + header + " header; the request has none");
            }
            if (values.size() > 1) {
                throw new ConsoleException(403, "the request names its operator " + values.size() + " times in the "
                        + header + " header; the proxy sets it once");
            }
            String name = values.get(0);
            if (name.isEmpty() || name.length() > MAX_NAME || !name.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)
                    || name.startsWith(" ") || name.endsWith(" ")) {
                throw new ConsoleException(403, "the " + header + " header is not an operator's name: it is 1 to "
                        + MAX_NAME + " printable ASCII characters, without a space at either end; got "
                        + quote(name));
            }
            return name;
        }

        private static boolean isTokenChar(int c) {
            return c < 0x7f && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
        }

        /** The bad value as a sentence can show it: control characters escaped, at most 40 characters. */
        private static String quote(String value) {
            StringBuilder shown = new StringBuilder("'");
            value.codePoints().limit(40).forEach(c -> shown.append(c >= 0x20 && c <= 0x7e
                    ? Character.toString(c) : String.format(Locale.ROOT, "\\u%04x", c)));
            shown.append(value.codePointCount(0, value.length()) > 40 ? "'… (" + value.length() + " characters)" : "'");
            return shown.toString();
        }
    }
}
