; One fact modified n times: a counter counted up to n.
(deftemplate counter (slot i))
(defrule start (n ?) => (assert (counter (i 0))))
(defrule step ?c <- (counter (i ?i)) (n ?n&:(< ?i ?n)) => (modify ?c (i (+ ?i 1))))
(defrule report (declare (salience -1)) (counter (i ?i)) (n ?i) => (printout t "counter " ?i crlf))
