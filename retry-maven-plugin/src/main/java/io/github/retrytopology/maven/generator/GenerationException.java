package io.github.retrytopology.maven.generator;

/** A fault of the generator itself, such as a template that fails to render: never the user's spec. */
public final class GenerationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public GenerationException(String message) {
        super(message);
    }

    public GenerationException(String message, Throwable cause) {
        super(message, cause);
    }
}
