package x.y;

public final class RetryTopology {
}
