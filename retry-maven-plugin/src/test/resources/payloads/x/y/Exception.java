package x.y;

public final class Exception {
}
