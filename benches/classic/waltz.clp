;;; Waltz: label the lines of a 2-D drawing of 3-D objects (boundary B, convex +, concave -).
;;; Stages, moved through by modify of the stage fact:
;;;   duplicate              each line becomes two directed edges
;;;   detect_junctions       the edges leaving a point make a junction: two an L; three a tee,
;;;                          fork or arrow, typed by the angles between them (make_3_junction)
;;;   find_initial_boundary  the L or arrow with the highest base point: its edges are boundaries
;;;   find_second_boundary   the L or arrow with the lowest base point: the same
;;;   labeling               labels propagate junction by junction (modify of each edge's label)
;;;   plot_remaining_edges   every edge not yet plotted is plotted
;;;   done
;;; A point is written x * 100 + y. Load this file, then a data file (data/waltzN.fct) with
;;; (load-facts), (run), then (print-answer): one line per junction and per edge.

(deftemplate stage (slot value))
(deftemplate line (slot p1) (slot p2))
(deftemplate edge (slot p1) (slot p2) (slot joined) (slot label (default nil)) (slot plotted (default nil)))
(deftemplate junction (slot p1) (slot p2) (slot p3) (slot base_point) (slot type))

;;; ---- geometry -------------------------------------------------------------------------------

;;; The direction of the edge from ?from to ?to, in radians, -pi < a <= pi.
(deffunction edge_angle (?from ?to)
   (bind ?dx (- (div ?to 100) (div ?from 100)))
   (bind ?dy (- (mod ?to 100) (mod ?from 100)))
   (if (= ?dx 0) then
      (if (> ?dy 0) then (return (/ (pi) 2)) else (return (- 0 (/ (pi) 2)))))
   (bind ?a (atan (/ (float ?dy) ?dx)))
   (if (> ?dx 0) then (return ?a))
   (if (>= ?dy 0) then (return (+ ?a (pi))))
   (- ?a (pi)))

;;; The angle between the edges from ?bp to ?p1 and to ?p2, 0..pi.
(deffunction inscribed_angle (?bp ?p1 ?p2)
   (bind ?d (abs (- (edge_angle ?bp ?p1) (edge_angle ?bp ?p2))))
   (if (> ?d (pi)) then (- (* 2 (pi)) ?d) else ?d))

;;; The junction of three edges from ?bp: the shaft is the edge whose angles to the other two sum
;;; least; a sum of pi (within 0.001) is a tee, more a fork, less an arrow. The shaft goes in p2.
(deffunction make_3_junction (?bp ?p1 ?p2 ?p3)
   (bind ?a12 (inscribed_angle ?bp ?p1 ?p2))
   (bind ?a13 (inscribed_angle ?bp ?p1 ?p3))
   (bind ?a23 (inscribed_angle ?bp ?p2 ?p3))
   (bind ?s1 (+ ?a12 ?a13))
   (bind ?s2 (+ ?a12 ?a23))
   (bind ?s3 (+ ?a13 ?a23))
   (if (and (< ?s1 ?s2) (< ?s1 ?s3)) then
      (bind ?sum ?s1) (bind ?shaft ?p1) (bind ?b1 ?p2) (bind ?b2 ?p3)
    else (if (< ?s2 ?s3) then
      (bind ?sum ?s2) (bind ?shaft ?p2) (bind ?b1 ?p1) (bind ?b2 ?p3)
    else
      (bind ?sum ?s3) (bind ?shaft ?p3) (bind ?b1 ?p1) (bind ?b2 ?p2)))
   (if (< (abs (- ?sum (pi))) 0.001) then (bind ?type tee)
    else (if (> ?sum (pi)) then (bind ?type fork) else (bind ?type arrow)))
   (assert (junction (type ?type) (base_point ?bp) (p1 ?b1) (p2 ?shaft) (p3 ?b2))))

;;; ---- duplicate ------------------------------------------------------------------------------

(defrule reverse_edges
   (stage (value duplicate))
   ?f2 <- (line (p1 ?p1) (p2 ?p2))
   =>
   (assert (edge (p1 ?p1) (p2 ?p2) (joined false)))
   (assert (edge (p1 ?p2) (p2 ?p1) (joined false)))
   (retract ?f2))

(defrule done_reversing
   (declare (salience -10))
   ?f1 <- (stage (value duplicate))
   =>
   (modify ?f1 (value detect_junctions)))

;;; ---- detect_junctions -----------------------------------------------------------------------

(defrule make_3_junction
   (declare (salience 10))
   (stage (value detect_junctions))
   ?f2 <- (edge (p1 ?bp) (p2 ?p1) (joined false))
   ?f3 <- (edge (p1 ?bp) (p2 ?p2&~?p1) (joined false))
   ?f4 <- (edge (p1 ?bp) (p2 ?p3&~?p1&~?p2) (joined false))
   =>
   (make_3_junction ?bp ?p1 ?p2 ?p3)
   (modify ?f2 (joined true))
   (modify ?f3 (joined true))
   (modify ?f4 (joined true)))

;;; Two edges, and only two, leave the point.
(defrule make_L
   (stage (value detect_junctions))
   ?f2 <- (edge (p1 ?bp) (p2 ?p2) (joined false))
   ?f3 <- (edge (p1 ?bp) (p2 ?p3&~?p2) (joined false))
   (not (edge (p1 ?bp) (p2 ~?p2&~?p3)))
   =>
   (assert (junction (type L) (base_point ?bp) (p1 ?p2) (p2 ?p3)))
   (modify ?f2 (joined true))
   (modify ?f3 (joined true)))

(defrule done_detecting
   (declare (salience -10))
   ?f1 <- (stage (value detect_junctions))
   =>
   (modify ?f1 (value find_initial_boundary)))

;;; ---- the two boundary junctions -------------------------------------------------------------

(defrule initial_boundary_junction_L
   ?f1 <- (stage (value find_initial_boundary))
   (junction (type L) (base_point ?bp) (p1 ?p1) (p2 ?p2))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   (not (junction (base_point ?other&:(> ?other ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B))
   (modify ?f1 (value find_second_boundary)))

(defrule initial_boundary_junction_arrow
   ?f1 <- (stage (value find_initial_boundary))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   (not (junction (base_point ?other&:(> ?other ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label +))
   (modify ?f5 (label B))
   (modify ?f1 (value find_second_boundary)))

(defrule second_boundary_junction_L
   ?f1 <- (stage (value find_second_boundary))
   (junction (type L) (base_point ?bp) (p1 ?p1) (p2 ?p2))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   (not (junction (base_point ?other&:(< ?other ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B))
   (modify ?f1 (value labeling)))

(defrule second_boundary_junction_arrow
   ?f1 <- (stage (value find_second_boundary))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   (not (junction (base_point ?other&:(< ?other ?bp))))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label +))
   (modify ?f5 (label B))
   (modify ?f1 (value labeling)))

;;; ---- labeling -------------------------------------------------------------------------------

;;; A labelled edge gives its label to the edge running the other way.
(defrule match_edge
   (stage (value labeling))
   ?f2 <- (edge (p1 ?p1) (p2 ?p2) (label ?label&+|-|B))
   ?f3 <- (edge (p1 ?p2) (p2 ?p1) (label nil))
   =>
   (modify ?f2 (plotted t))
   (modify ?f3 (label ?label) (plotted t)))

(defrule label_L
   (stage (value labeling))
   (junction (type L) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p2) (label +|-))
   ?f4 <- (edge (p1 ?bp) (p2 ~?p2) (label nil))
   =>
   (modify ?f4 (label B)))

(defrule label_tee_A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type tee) (base_point ?bp) (p1 ?p1) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   ?f4 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B)))

(defrule label_tee_B
   (stage (value labeling))
   (junction (type tee) (base_point ?bp) (p1 ?p1) (p3 ?p3))
   ?f3 <- (edge (p1 ?bp) (p2 ?p1))
   ?f4 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f3 (label B))
   (modify ?f4 (label B)))

(defrule label_fork_1
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2&~?p1) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

(defrule label_fork_2
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label B))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label B)))

(defrule label_fork_3
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label B))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label B))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label -)))

(defrule label_fork_4
   (stage (value labeling))
   (junction (type fork) (base_point ?bp))
   (edge (p1 ?bp) (p2 ?p1) (label -))
   (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
   ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
   =>
   (modify ?f5 (label -)))

;;; Arrows: p2 is the shaft, p1 and p3 the barbs. Each pair of rules (A, B) is one labelling
;;; reached from either unlabelled edge.
(defrule label_arrow_1A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label ?label&B|-))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow_1B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label ?label&B|-))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow_2A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label ?label&B|-))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow_2B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label ?label&B|-))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label ?label)))

(defrule label_arrow_3A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow_3B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p1) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow_4A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow_4B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p3) (label +))
   ?f4 <- (edge (p1 ?bp) (p2 ?p2))
   ?f5 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   =>
   (modify ?f4 (label -))
   (modify ?f5 (label +)))

(defrule label_arrow_5A
   (declare (salience 5))
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p2) (label -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p1))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

(defrule label_arrow_5B
   (stage (value labeling))
   (junction (type arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
   (edge (p1 ?bp) (p2 ?p2) (label -))
   ?f4 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
   ?f5 <- (edge (p1 ?bp) (p2 ?p3))
   =>
   (modify ?f4 (label +))
   (modify ?f5 (label +)))

(defrule done_labeling
   (declare (salience -10))
   ?f1 <- (stage (value labeling))
   =>
   (modify ?f1 (value plot_remaining_edges)))

;;; ---- plot_remaining_edges -------------------------------------------------------------------

(defrule plot_remaining
   (stage (value plot_remaining_edges))
   ?f2 <- (edge (plotted nil) (label ~nil))
   =>
   (modify ?f2 (plotted t)))

;;; An edge no junction could label is taken for a boundary when drawn (its label stays nil).
(defrule plot_boundaries
   (stage (value plot_remaining_edges))
   ?f2 <- (edge (plotted nil) (label nil))
   =>
   (modify ?f2 (plotted t)))

(defrule done_plotting
   (declare (salience -10))
   ?f1 <- (stage (value plot_remaining_edges))
   =>
   (modify ?f1 (value done)))

;;; ---- the answer -----------------------------------------------------------------------------

;;; One line per junction (`junction BASE TYPE P1 P2 P3`, P3 0 for an L) and per edge
;;; (`edge P1 P2 LABEL`), in fact order; answer.py puts them in canonical order.
(deffunction print-answer ()
   (do-for-all-facts ((?j junction)) TRUE
      (printout t "junction " ?j:base_point " " ?j:type " " ?j:p1 " " ?j:p2 " "
                  (if (eq ?j:type L) then 0 else ?j:p3) crlf))
   (do-for-all-facts ((?e edge)) TRUE
      (printout t "edge " ?e:p1 " " ?e:p2 " " ?e:label crlf)))
