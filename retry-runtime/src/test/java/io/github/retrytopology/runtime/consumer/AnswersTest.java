package io.github.retrytopology.runtime.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AnswersTest {

    @Test
    void theFloorRisesOnlyOverAnUnbrokenRunOfAnsweredTags() {
        Answers answers = new Answers(0);
        assertThat(answers.answered(2)).isZero();
        assertThat(answers.answered(3)).isZero();
        assertThat(answers.answered(1)).isEqualTo(3);
        assertThat(answers.answered(5)).isEqualTo(3);
        assertThat(answers.answered(4)).isEqualTo(5);
    }

    @Test
    void tagsOfEarlierLivesAreBelowTheFloorFromTheStart() {
        Answers answers = new Answers(250);
        assertThat(answers.answered(17)).isEqualTo(250);
        assertThat(answers.answered(251)).isEqualTo(251);
    }

    @Test
    void answersInAnyOrderLeaveTheFloorAtTheFirstUnansweredTag() {
        Random random = new Random(20261122);
        for (int run = 0; run < 200; run++) {
            List<Long> tags = new ArrayList<>();
            for (long tag = 1; tag <= 300; tag++) {
                tags.add(tag);
            }
            Collections.shuffle(tags, random);
            long held = tags.remove(random.nextInt(tags.size()));
            Answers answers = new Answers(0);
            tags.forEach(answers::answered);
            assertThat(answers.floor()).isEqualTo(held - 1);
            assertThat(answers.answered(held)).isEqualTo(300);
        }
    }
}
