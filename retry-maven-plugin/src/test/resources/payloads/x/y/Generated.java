package x.y;

public final class Generated {
}
