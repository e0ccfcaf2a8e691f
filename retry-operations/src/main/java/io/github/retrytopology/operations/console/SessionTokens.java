package io.github.retrytopology.operations.console;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The tokens that actions carry against cross-site requests: one per operator, an HMAC of their name under a key
 * this process made at start-up. So a token is good only in this process, and only for the operator it was handed
 * to: one that leaks from one person's page does not act for another.
 */
final class SessionTokens {

    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    SessionTokens(SecureRandom random) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        this.key = new SecretKeySpec(secret, ALGORITHM);
    }

    /** The token of an operator, 64 hexadecimal digits. */
    String token(String operator) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(operator.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + ALGORITHM + ", which every JDK has: " + e.getMessage(), e);
        }
    }

    /** Whether a token sent with a request is this operator's, compared in constant time. */
    boolean matches(@Nullable String sent, String operator) {
        return sent != null && MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                token(operator).getBytes(StandardCharsets.UTF_8));
    }
}
