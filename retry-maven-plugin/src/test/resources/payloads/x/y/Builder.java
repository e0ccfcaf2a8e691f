package x.y;

public final class Builder {
}
