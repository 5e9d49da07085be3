;;; Five-card stud Rule1–Rule9 (docs/language.md, rules/stud.rules) as CLIPS defrules over card facts, one fact per card,
;;; and a driver that enumerates the hands inside CLIPS. The comparison anchor for
;;; `kibitzer bench classify` (see README.md beside this file).
;;;
;;; Categories, best first: 1 straight flush, 2 four of a kind, 3 full house, 4 flush, 5 straight,
;;; 6 three of a kind, 7 two pair, 8 one pair, 9 high card. The ace is high only (rank 14):
;;; A-2-3-4-5 and J-Q-K-A-2 are not straights, so a suited A2345 is a flush.
;;;
;;; Each rule says what its category needs; salience orders them best first and every rule
;;; requires that no category has been concluded yet, so the first matching category wins (as
;;; the Rust rules do: Rule1 salience 90 ... Rule9 salience 10). The `tally` rule, lowest salience,
;;; counts the category and retracts the hand.
;;;
;;; Cards are numbered 0..51 as kibitzer numbers them: rank = 2 + id div 4, suit = S H D C by id mod 4.
;;; The `id` slot orders cards so that a rule matches a set of cards once, not in every order.

(deftemplate card
   (slot id (type INTEGER))
   (slot rank (type INTEGER) (range 2 14))
   (slot suit (type SYMBOL) (allowed-symbols S H D C)))

;;; (hand <the five card fact addresses>), an ordered fact: present while a hand is classified.
;;; (category (number N)): the conclusion.
(deftemplate category
   (slot number (type INTEGER)))

(defglobal
   ?*counts* = (create$ 0 0 0 0 0 0 0 0 0)
   ?*suits* = (create$ S H D C))

;;; ---- Rule1–Rule9 ------------------------------------------------------------------------------

(defrule Rule1-straight-flush "five cards of one suit in sequence"
   (declare (salience 90))
   (card (rank ?r&:(<= ?r 10)) (suit ?s))     ; the lowest card: the ace is high only
   (card (rank =(+ ?r 1)) (suit ?s))
   (card (rank =(+ ?r 2)) (suit ?s))
   (card (rank =(+ ?r 3)) (suit ?s))
   (card (rank =(+ ?r 4)) (suit ?s))
   (not (category))
   =>
   (assert (category (number 1))))

(defrule Rule2-four-of-a-kind "four cards of one rank"
   (declare (salience 80))
   (card (id ?a) (rank ?r))
   (card (id ?b&:(> ?b ?a)) (rank ?r))
   (card (id ?c&:(> ?c ?b)) (rank ?r))
   (card (id ?d&:(> ?d ?c)) (rank ?r))
   (not (category))
   =>
   (assert (category (number 2))))

(defrule Rule3-full-house "three cards of one rank and two of another"
   (declare (salience 70))
   (card (id ?a) (rank ?t))
   (card (id ?b&:(> ?b ?a)) (rank ?t))
   (card (id ?c&:(> ?c ?b)) (rank ?t))
   (card (id ?d) (rank ?p&~?t))
   (card (id ?e&:(> ?e ?d)) (rank ?p))
   (not (category))
   =>
   (assert (category (number 3))))

(defrule Rule4-flush "five cards of one suit (in sequence is Rule1, which outranks this)"
   (declare (salience 60))
   (card (id ?a) (suit ?s))
   (card (id ?b&:(> ?b ?a)) (suit ?s))
   (card (id ?c&:(> ?c ?b)) (suit ?s))
   (card (id ?d&:(> ?d ?c)) (suit ?s))
   (card (id ?e&:(> ?e ?d)) (suit ?s))
   (not (category))
   =>
   (assert (category (number 4))))

(defrule Rule5-straight "five ranks in sequence, ace high only"
   (declare (salience 50))
   (card (rank ?r&:(<= ?r 10)))               ; the lowest card: 10-J-Q-K-A is the highest straight
   (card (rank =(+ ?r 1)))
   (card (rank =(+ ?r 2)))
   (card (rank =(+ ?r 3)))
   (card (rank =(+ ?r 4)))
   (not (category))
   =>
   (assert (category (number 5))))

(defrule Rule6-three-of-a-kind "three cards of one rank"
   (declare (salience 40))
   (card (id ?a) (rank ?r))
   (card (id ?b&:(> ?b ?a)) (rank ?r))
   (card (id ?c&:(> ?c ?b)) (rank ?r))
   (not (category))
   =>
   (assert (category (number 6))))

(defrule Rule7-two-pair "two cards of one rank and two of a lower one"
   (declare (salience 30))
   (card (id ?a) (rank ?h))
   (card (id ?b&:(> ?b ?a)) (rank ?h))
   (card (id ?c) (rank ?l&:(< ?l ?h)))
   (card (id ?d&:(> ?d ?c)) (rank ?l))
   (not (category))
   =>
   (assert (category (number 7))))

(defrule Rule8-one-pair "two cards of one rank"
   (declare (salience 20))
   (card (id ?a) (rank ?r))
   (card (id ?b&:(> ?b ?a)) (rank ?r))
   (not (category))
   =>
   (assert (category (number 8))))

(defrule Rule9-high-card "none of Rule1–Rule8 holds"
   (declare (salience 10))
   (hand $?)
   (not (category))
   =>
   (assert (category (number 9))))

;;; ---- the tally -------------------------------------------------------------------------------

;;; Counts the concluded category and retracts the hand: its cards first, then the hand fact, then
;;; the category (so that no rule is activated again by the category going away).
(defrule tally "count the category, retract the hand"
   (declare (salience -100))
   ?h <- (hand $?cards)
   ?c <- (category (number ?n))
   =>
   (bind ?*counts* (replace$ ?*counts* ?n ?n (+ 1 (nth$ ?n ?*counts*))))
   (retract (expand$ ?cards))
   (retract ?h)
   (retract ?c))

;;; ---- the driver ------------------------------------------------------------------------------

(deffunction deal (?i)
   (assert (card (id ?i) (rank (+ 2 (div ?i 4))) (suit (nth$ (+ 1 (mod ?i 4)) ?*suits*)))))

;;; Classifies every hand a<b<c<d<e of card ids whose first card a is one of ?firsts (all of
;;; 0..47 for every hand): asserts the five card facts and the hand fact, runs the rules (the tally
;;; rule counts the category and retracts the hand). Timed with (time) around the loops only: fact
;;; assertion, matching, firing, the tally and the retractions; not the load or the process start.
;;; Prints the nine counts and the rate; returns (hands seconds count1 ... count9).
(deffunction classify-hands ($?firsts)
   (bind ?*counts* (create$ 0 0 0 0 0 0 0 0 0))
   (bind ?hands 0)
   (bind ?t0 (time))
   (foreach ?a ?firsts
      (loop-for-count (?b (+ ?a 1) 51) do
         (loop-for-count (?c (+ ?b 1) 51) do
            (loop-for-count (?d (+ ?c 1) 51) do
               (loop-for-count (?e (+ ?d 1) 51) do
                  (assert (hand (deal ?a) (deal ?b) (deal ?c) (deal ?d) (deal ?e)))
                  (run)
                  (bind ?hands (+ ?hands 1)))))))
   (bind ?secs (- (time) ?t0))
   (bind ?names (create$ "straight flush" "four of a kind" "full house" "flush" "straight"
                         "three of a kind" "two pair" "one pair" "high card"))
   (loop-for-count (?i 1 9) do
      (format t "  %-16s %8d%n" (nth$ ?i ?names) (nth$ ?i ?*counts*)))
   (format t "clips_hands=%d clips_seconds=%.3f clips_hands_per_s=%.0f%n"
           ?hands ?secs (/ ?hands (max ?secs 0.000001)))
   (create$ ?hands ?secs ?*counts*))

;;; All hands whose first card is ?first or above, as a convenience.
(deffunction classify-from (?first)
   (bind ?firsts (create$))
   (loop-for-count (?a ?first 47) do (bind ?firsts (create$ ?firsts ?a)))
   (classify-hands ?firsts))
