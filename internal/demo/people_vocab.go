package demo

// People's names by naming region. First names are single words (a
// hyphen is allowed: "Jean-Pierre", "Min-jun"); surnames may have several
// words ("van der Berg", "de la Cruz") and a feminine form after a slash
// ("Kowalski/Kowalska"). Names are written in the Latin script with the
// accents the language uses; romanized names (Japanese, Chinese, Korean,
// Arabic...) are in the given-name-first order people use on Western
// networks.

type nameSpec struct {
	male, female string // space-separated
	last         string // comma-separated, "masculine/feminine" where they differ
}

var nameSpecs = map[string]nameSpec{
	"en": {
		`James John Robert Michael William David Richard Joseph Thomas Christopher Daniel Matthew Anthony Mark Steven
		Andrew Paul Joshua Kevin Brian George Timothy Ryan Jacob Nicholas Eric Jonathan Justin Benjamin Samuel Patrick
		Alexander Tyler Nathan Adam Oliver Harry Jack Liam Ethan Scott Gregory Sean Luke Connor`,
		`Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Emily Michelle Amanda Melissa
		Stephanie Rebecca Laura Rachel Hannah Olivia Emma Sophie Charlotte Amelia Grace Megan Lauren Katherine Victoria
		Natalie Claire Chloe Ashley Heather Caroline Abigail Madison Kimberly Julia Lucy Holly Alice`,
		`Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Anderson, Taylor, Thomas, Moore, Martin, Jackson,
		Thompson, White, Harris, Clark, Lewis, Robinson, Walker, Young, Allen, King, Wright, Scott, Hill, Green, Adams,
		Baker, Nelson, Carter, Mitchell, Roberts, Turner, Phillips, Campbell, Parker, Evans, Edwards, Collins, Stewart,
		Morris, Rogers, Reed, Cook, Morgan, Bell, Murphy, Bailey, Cooper, Richardson, Howard, Ward, Peterson, Gray,
		Watson, Brooks, Kelly, Sanders, Price, Bennett, Wood, Barnes, Ross, Henderson, Coleman, Jenkins, Perry, Powell,
		Hughes, Foster, Russell, Griffin, Hayes, Ford, Hamilton, Graham, Sullivan, Wallace, Fisher, Ellis, Harrison,
		Gibson, McDonald, Marshall, Wells, Simpson, Stevens, Hunter, Crawford, Kennedy, Warren, Gordon, Shaw, Holmes,
		O'Brien, O'Connor, Fitzgerald, Sutton, Fletcher, Lambert, Walsh, Lynch, Chapman, Fraser, MacLeod, Doyle`},
	"de": {
		`Thomas Michael Andreas Stefan Christian Markus Martin Frank Jürgen Matthias Alexander Sebastian Tobias Florian
		Jan Daniel Maximilian Lukas Felix Jonas Niklas Philipp Tim Moritz Johannes Uwe Klaus Wolfgang Ralf Dirk Björn
		Jörg Torsten Holger Benedikt`,
		`Sabine Petra Claudia Susanne Andrea Nicole Stefanie Julia Katharina Anna Laura Lena Lea Sarah Hannah Johanna
		Sophie Miriam Jana Nina Anja Birgit Ulrike Kerstin Monika Christine Franziska Carolin Annika Marie Bärbel Ute`,
		`Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, Koch, Bauer,
		Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann, Hartmann, Lange, Schmitt,
		Werner, Schmitz, Krause, Meier, Lehmann, Schmid, Schulze, Maier, Köhler, Herrmann, König, Walter, Mayer, Huber,
		Kaiser, Fuchs, Peters, Lang, Scholz, Möller, Weiß, Jung, Hahn, Vogel, Friedrich, Keller, Günther, Berger,
		Winkler, Roth, Beck, Lorenz, Baumann, Franke, Albrecht, Schuster, Ludwig, Böhm, Winter, Kraus, Schumacher,
		Krämer, Vogt, Stein, Jäger, Sommer, Groß, Seidel, Brandt, Haas, Schreiber, Graf, Dietrich, Kühn`},
	"fr": {
		`Jean Pierre Michel Philippe Alain Nicolas Christophe Laurent Julien Sébastien Frédéric Stéphane Olivier Thomas
		Antoine Maxime Alexandre Guillaume Mathieu Romain Hugo Louis Lucas Théo Arnaud Benoît Jérôme François
		Jean-Baptiste Jean-Marc Cédric Vincent Grégoire Loïc`,
		`Marie Nathalie Isabelle Sylvie Catherine Sophie Valérie Christine Sandrine Céline Aurélie Émilie Julie Camille
		Léa Manon Chloé Pauline Mathilde Claire Élodie Hélène Anne Caroline Virginie Amélie Charlotte Inès Laure Marion
		Océane Margaux Anne-Sophie`,
		`Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefèvre, Michel,
		Garcia, David, Bertrand, Roux, Vincent, Fournier, Morel, Girard, André, Lefebvre, Mercier, Dupont, Lambert,
		Bonnet, François, Legrand, Garnier, Faure, Rousseau, Blanc, Guérin, Muller, Henry, Roussel, Perrin, Morin,
		Mathieu, Clément, Gauthier, Dumont, Fontaine, Chevalier, Robin, Masson, Gérard, Boyer, Denis, Lemaire, Duval,
		Joly, Roche, Roy, Noël, Meunier, Marchand, Dufour, Blanchard, Barbier, Brun, Dumas, Brunet, Leroux, Colin,
		Renard, Arnaud, Caron, Aubert, Giraud, Leclerc, Vidal, Bourgeois, Renaud, Lemoine, Picard, Gaillard, Lacroix,
		Fabre, Dupuis, Le Gall, Rivière, Ménard, Fleury, Deschamps, Carpentier, Prévost, Poirier, Le Goff, Lemaître`},
	"es": {
		`José Antonio Manuel Francisco David Juan Javier Daniel Carlos Jesús Alejandro Miguel Rafael Pablo Sergio
		Fernando Jorge Luis Alberto Álvaro Diego Adrián Andrés Raúl Enrique Ramón Víctor Ignacio Iván Rubén Óscar
		Santiago Mateo Sebastián Gonzalo Rodrigo Felipe Emilio Joaquín Martín`,
		`María Carmen Ana Laura Isabel Lucía Marta Cristina Paula Elena Sara Patricia Raquel Beatriz Rocío Silvia Natalia
		Andrea Claudia Alejandra Sofía Valentina Camila Gabriela Daniela Mariana Verónica Mónica Julia Irene Nuria Pilar
		Inés Victoria Ximena Fernanda Lorena Adriana Catalina Florencia`,
		`García, Rodríguez, González, Fernández, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz,
		Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Alonso, Gutiérrez, Navarro, Torres, Domínguez, Vázquez, Ramos,
		Gil, Ramírez, Serrano, Blanco, Molina, Morales, Suárez, Ortega, Delgado, Castro, Ortiz, Rubio, Marín, Sanz,
		Núñez, Iglesias, Medina, Garrido, Cortés, Castillo, Santos, Lozano, Guerrero, Cano, Prieto, Méndez, Cruz, Flores,
		Herrera, Peña, León, Márquez, Cabrera, Gallego, Calvo, Vidal, Campos, Reyes, Vega, Fuentes, Carrasco, Aguilar,
		Vargas, Rojas, Mendoza, Silva, Castañeda, Salazar, Orozco, de la Cruz, del Río, Villalobos, Espinoza`},
	"pt": {
		`João José António Francisco Pedro Paulo Carlos Luís Manuel Rui Tiago Miguel Ricardo Bruno André Rafael Gustavo
		Lucas Gabriel Mateus Felipe Rodrigo Eduardo Marcelo Fernando Leonardo Thiago Vinícius Diogo Gonçalo Henrique
		Fábio Márcio Sérgio Daniel Caio`,
		`Maria Ana Juliana Fernanda Mariana Beatriz Inês Joana Sofia Camila Larissa Letícia Gabriela Amanda Bruna
		Carolina Patrícia Aline Vanessa Renata Luana Raquel Catarina Marta Rita Tatiana Cláudia Débora Isabela Luísa
		Thaís Priscila`,
		`Silva, Santos, Oliveira, Souza, Sousa, Rodrigues, Ferreira, Alves, Pereira, Lima, Gomes, Costa, Ribeiro,
		Martins, Carvalho, Almeida, Lopes, Soares, Fernandes, Vieira, Barbosa, Rocha, Dias, Nascimento, Andrade, Moreira,
		Nunes, Marques, Machado, Mendes, Freitas, Cardoso, Ramos, Gonçalves, Santana, Teixeira, Araújo, Pinto, Correia,
		Moura, Cavalcanti, Monteiro, Azevedo, Coelho, Batista, Castro, Campos, Fonseca, Magalhães, Tavares, Brandão`},
	"it": {
		`Marco Giuseppe Giovanni Antonio Francesco Luca Alessandro Andrea Matteo Lorenzo Davide Stefano Roberto Paolo
		Simone Federico Riccardo Fabio Massimo Gabriele Emanuele Daniele Michele Alberto Claudio Enrico Nicola Pietro
		Tommaso Filippo Salvatore Vincenzo Niccolò`,
		`Maria Anna Giulia Francesca Chiara Sara Laura Valentina Alessandra Federica Elena Silvia Martina Paola Roberta
		Giorgia Elisa Simona Serena Alice Beatrice Sofia Aurora Ilaria Claudia Michela Veronica Cristina Barbara Noemi`,
		`Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca,
		Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani, Rinaldi, Caruso,
		Ferrara, Galli, Martini, Leone, Longo, Gentile, Martinelli, Vitale, Lombardo, Serra, Coppola, De Santis,
		D'Angelo, Marchetti, Parisi, Villa, Conte, Ferraro, Ferri, Fabbri, Bianco, Marini, Grasso, Valentini, Messina,
		Sala, De Rosa, Gatti, Pellegrini, Palumbo, Sanna, Farina, Rizzi, Monti, Cattaneo, Morelli, Amato, Silvestri,
		Mazza, Testa, Grassi, Carbone, Giuliani, Benedetti, Barone, Caputo, Montanari, Guerra, Palmieri, Bernardi,
		D'Amico, Ferretti, Bellini, Basile, Riva, Donati, Piras, Battaglia, Sartori, Neri, Costantini, Milani, Sorrentino`},
	"nl": {
		`Jan Pieter Kees Willem Johannes Hendrik Joost Bas Sander Thijs Daan Bram Lars Ruben Tim Jeroen Martijn Niels
		Stefan Rob Maarten Wouter Koen Jasper Sven Luuk Stijn Floris Gijs Pim Bart Dirk Wim Geert`,
		`Anna Maria Emma Sanne Lotte Lisa Eva Femke Anouk Fleur Iris Julia Sophie Marieke Esther Inge Anke Linda Marloes
		Noor Lieke Roos Manon Ingrid Annemieke Saskia Els Hanneke Janneke Mirjam Zoë`,
		`de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Janssen, Visser, Smit, Meijer, de Boer, Mulder,
		de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer, de Wit, Dijkstra, Smits, de Graaf,
		van der Meer, van der Linden, Kok, Jacobs, de Haan, Vermeulen, van den Heuvel, van der Veen, van den Broek,
		de Bruijn, van der Heijden, Schouten, van Beek, Willems, van Vliet, van de Ven, Hoekstra, Maas, Verhoeven,
		Koster, van Dam, van der Wal, Prins, Blom, Huisman, Peeters, Maes, Claes, Goossens, Wouters, Mertens, De Smet`},
	"sv": {
		`Erik Lars Anders Johan Karl Per Nils Magnus Mikael Fredrik Jonas Oskar Gustav Axel Emil Björn Henrik Daniel
		Viktor Linus Mattias Joakim`,
		`Anna Maria Karin Eva Sara Emma Ingrid Astrid Linnea Elin Sofia Ida Johanna Kristina Malin Maja Frida Ebba Elsa
		Matilda Åsa Lovisa`,
		`Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson, Pettersson,
		Jonsson, Lindberg, Lindström, Lindqvist, Bergström, Sandberg, Lundberg, Holm, Ek, Nyström, Björk, Wallin,
		Engström, Sjöberg, Åberg, Forsberg, Lundgren, Hedlund, Berglund, Strömberg, Söderberg`},
	"da": {
		`Jens Søren Rasmus Mads Frederik Morten Mikkel Anders Lars Henrik Christian Thomas Jesper Kasper Nikolaj Jakob
		Martin Peter Niels Troels`,
		`Mette Camilla Sofie Line Anne Louise Julie Ida Maria Signe Katrine Freja Cecilie Pernille Charlotte Trine Rikke
		Helle Lærke Mathilde`,
		`Jensen, Nielsen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, Jørgensen, Petersen,
		Madsen, Kristensen, Olsen, Thomsen, Christiansen, Poulsen, Johansen, Møller, Mortensen, Knudsen, Jakobsen, Lund,
		Holm, Eriksen, Kristiansen, Nygaard, Bach, Dahl, Østergaard`},
	"no": {
		`Ole Bjørn Håkon Sindre Olav Einar Lars Magnus Jon Per Kjetil Espen Trond Eirik Anders Henrik Thomas Martin
		Jørgen Sander Øyvind`,
		`Ingrid Kari Silje Ingeborg Solveig Marte Hanne Ida Nora Thea Ingvild Tone Anne Marit Guro Kristin Sigrid Hilde
		Mari Line Åse`,
		`Hansen, Johansen, Olsen, Larsen, Andersen, Pedersen, Nilsen, Kristiansen, Jensen, Karlsen, Johnsen, Pettersen,
		Eriksen, Berg, Haugen, Hagen, Johannessen, Andreassen, Jacobsen, Dahl, Halvorsen, Henriksen, Lund, Bakken,
		Moen, Strand, Solberg, Lie, Eide, Løken, Sæther`},
	"fi": {
		`Mikko Juha Jari Timo Antti Matti Pekka Jukka Ville Janne Sami Tuomas Lauri Eero Aleksi Juho Petri Markku Heikki
		Olli`,
		`Anna Maria Johanna Laura Anne Päivi Tiina Sari Kaisa Minna Hanna Riikka Satu Elina Emilia Aino Sanna Katja
		Heidi Noora`,
		`Korhonen, Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen, Lehtonen,
		Lehtinen, Saarinen, Salminen, Heinonen, Niemi, Heikkilä, Kinnunen, Salonen, Turunen, Salo, Laitinen, Tuominen,
		Rantanen, Karjalainen, Jokinen, Mattila, Savolainen, Lahtinen, Ahonen`},
	"pl": {
		`Piotr Krzysztof Andrzej Tomasz Paweł Michał Marcin Jakub Adam Łukasz Marek Grzegorz Mateusz Wojciech Kamil
		Maciej Rafał Bartosz Dariusz Jan Szymon Karol Sebastian Damian`,
		`Anna Maria Katarzyna Małgorzata Agnieszka Barbara Ewa Magdalena Joanna Aleksandra Monika Natalia Karolina Zofia
		Julia Marta Paulina Beata Dorota Justyna Weronika Agata`,
		`Nowak, Kowalski/Kowalska, Wiśniewski/Wiśniewska, Wójcik, Kowalczyk, Kamiński/Kamińska,
		Lewandowski/Lewandowska, Zieliński/Zielińska, Szymański/Szymańska, Woźniak, Dąbrowski/Dąbrowska,
		Kozłowski/Kozłowska, Jankowski/Jankowska, Mazur, Wojciechowski/Wojciechowska, Kwiatkowski/Kwiatkowska,
		Krawczyk, Kaczmarek, Piotrowski/Piotrowska, Grabowski/Grabowska, Zając, Pawłowski/Pawłowska,
		Michalski/Michalska, Król, Wieczorek, Jabłoński/Jabłońska, Wróbel, Nowakowski/Nowakowska, Majewski/Majewska,
		Olszewski/Olszewska, Stępień, Malinowski/Malinowska, Jaworski/Jaworska, Adamczyk, Dudek, Nowicki/Nowicka,
		Pawlak, Górski/Górska, Witkowski/Witkowska, Walczak, Sikora, Baran, Rutkowski/Rutkowska, Michalak, Szewczyk`},
	"cs": {
		`Jan Petr Jiří Josef Pavel Martin Tomáš Jaroslav Miroslav Zdeněk Václav Michal František Jakub Lukáš David
		Ondřej Vojtěch Filip Marek`,
		`Jana Marie Eva Hana Anna Lenka Kateřina Lucie Věra Alena Petra Veronika Martina Tereza Michaela Jitka Barbora
		Kristýna Markéta Zuzana`,
		`Novák/Nováková, Svoboda/Svobodová, Novotný/Novotná, Dvořák/Dvořáková, Černý/Černá, Procházka/Procházková,
		Kučera/Kučerová, Veselý/Veselá, Horák/Horáková, Němec/Němcová, Pokorný/Pokorná, Marek/Marková,
		Pospíšil/Pospíšilová, Hájek/Hájková, Jelínek/Jelínková, Král/Králová, Růžička/Růžičková, Beneš/Benešová,
		Fiala/Fialová, Sedláček/Sedláčková, Doležal/Doležalová, Zeman/Zemanová, Kolář/Kolářová,
		Navrátil/Navrátilová, Čermák/Čermáková, Urban/Urbanová, Vaněk/Vaňková, Blažek/Blažková, Kříž/Křížová`},
	"hu": {
		`László István József Zoltán Sándor Gábor Ferenc Attila Péter Tamás Zsolt János Balázs Dávid Ádám Bence Máté
		Levente Csaba Gergely`,
		`Mária Erzsébet Katalin Ilona Éva Anna Zsuzsanna Andrea Krisztina Judit Ágnes Eszter Nikolett Réka Dóra Petra
		Anita Boglárka Zsófia Kitti`,
		`Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas, Balogh, Papp, Takács, Juhász, Lakatos,
		Mészáros, Oláh, Simon, Rácz, Fekete, Szilágyi, Török, Fehér, Balázs, Gál, Szűcs, Kocsis, Pintér, Fodor,
		Szalai, Sipos, Magyar, Lukács, Gulyás, Bíró, Király, Katona, Erdős, Vörös`},
	"ro": {
		`Andrei Alexandru Ion Mihai Gheorghe Constantin Adrian Florin Bogdan Cristian Daniel Marius Ștefan Vlad Radu
		Gabriel Sorin Ionuț Răzvan Cătălin`,
		`Maria Elena Ioana Ana Andreea Alexandra Mihaela Cristina Gabriela Daniela Raluca Roxana Simona Irina Diana Oana
		Alina Laura Bianca Teodora`,
		`Popescu, Ionescu, Popa, Pop, Radu, Dumitru, Stan, Stoica, Gheorghe, Matei, Ciobanu, Constantin, Mihai, Marin,
		Rusu, Munteanu, Florea, Dinu, Lazăr, Tudor, Barbu, Moldovan, Sârbu, Nistor, Dobre, Ene, Toma, Cristea,
		Georgescu, Dragomir, Mocanu, Dumitrescu, Vasile, Oprea, Ursu, Lungu, Diaconu, Iordache, Neagu, Țurcanu`},
	"yu": {
		`Marko Ivan Luka Nikola Stefan Milan Dragan Goran Zoran Aleksandar Petar Filip Josip Tomislav Matej Dejan Nenad
		Miloš Darko Vladimir Jure Anže`,
		`Ana Marija Jelena Ivana Milica Maja Katarina Nina Petra Sara Tamara Dragana Mia Lucija Tina Sanja Vesna Jovana
		Nataša Špela`,
		`Horvat, Kovačević, Babić, Marić, Jurić, Novak, Kovačić, Knežević, Vuković, Marković, Petrović, Pavlović,
		Nikolić, Jovanović, Đorđević, Ilić, Stojanović, Popović, Stanković, Kostić, Milošević, Tomić, Lukić, Perić,
		Radić, Mitrović, Krajnc, Zupan, Vidmar, Golob, Kralj, Božić, Grgić, Savić, Mihajlović, Todorović`},
	"el": {
		`Georgios Ioannis Konstantinos Dimitrios Nikolaos Panagiotis Vasileios Christos Athanasios Michail Evangelos
		Spyridon Emmanouil Alexandros Petros Stavros Theodoros Andreas Nikos Kostas`,
		`Maria Eleni Aikaterini Vasiliki Sofia Angeliki Georgia Dimitra Konstantina Paraskevi Christina Ioanna Anastasia
		Despoina Evangelia Athina Zoi Chrysa Eirini Theodora`,
		`Papadopoulos/Papadopoulou, Papadakis/Papadaki, Georgiou, Nikolaou, Karagiannis/Karagianni, Vasileiou,
		Pappas/Pappa, Oikonomou, Konstantinidis/Konstantinidou, Dimitriou, Ioannou, Antoniou, Christodoulou,
		Makris/Makri, Alexiou, Athanasiou, Panagiotopoulos/Panagiotopoulou, Michailidis/Michailidou,
		Georgiadis/Georgiadou, Theodorou, Kyriakou, Stavrou, Angelopoulos/Angelopoulou, Petridis/Petridou,
		Katsaros/Katsarou, Raptis/Rapti, Lambrou, Zervas/Zerva, Mavridis/Mavridou`},
	"ru": {
		`Aleksandr Dmitry Sergey Andrey Alexey Maxim Ivan Mikhail Nikolai Vladimir Pavel Artem Denis Yevgeny Oleg Roman
		Kirill Igor Anton Ilya Konstantin Viktor Yuri Timur`,
		`Anna Elena Olga Natalia Ekaterina Tatiana Maria Irina Svetlana Yulia Anastasia Daria Marina Ksenia Polina
		Victoria Alina Sofia Valeria Yana`,
		`Ivanov/Ivanova, Smirnov/Smirnova, Kuznetsov/Kuznetsova, Popov/Popova, Vasiliev/Vasilieva, Petrov/Petrova,
		Sokolov/Sokolova, Mikhailov/Mikhailova, Novikov/Novikova, Fedorov/Fedorova, Morozov/Morozova, Volkov/Volkova,
		Alekseev/Alekseeva, Lebedev/Lebedeva, Semenov/Semenova, Egorov/Egorova, Pavlov/Pavlova, Kozlov/Kozlova,
		Stepanov/Stepanova, Nikolaev/Nikolaeva, Orlov/Orlova, Andreev/Andreeva, Makarov/Makarova, Zaitsev/Zaitseva,
		Kovalenko, Shevchenko, Bondarenko, Tkachenko, Melnyk, Kravchenko, Boyko, Savchenko`},
	"lt": {
		`Tomas Mantas Lukas Jonas Andrius Darius Marius Paulius Vytautas Giedrius Rokas Karolis`,
		`Rūta Giedrė Aistė Ieva Eglė Laura Greta Agnė Jurgita Kristina Indrė Lina`,
		`Kazlauskas/Kazlauskienė, Jankauskas/Jankauskienė, Petrauskas/Petrauskienė, Stankevičius/Stankevičienė,
		Vasiliauskas/Vasiliauskienė, Žukauskas/Žukauskienė, Butkus/Butkienė, Paulauskas/Paulauskienė,
		Urbonas/Urbonienė, Kavaliauskas/Kavaliauskienė, Navickas/Navickienė, Ramanauskas/Ramanauskienė`},
	"lv": {
		`Jānis Andris Mārtiņš Edgars Kaspars Artūrs Roberts Raivis Aigars Valdis Toms Rihards`,
		`Anna Kristīne Līga Ilze Inese Laura Dace Zane Santa Agnese Elīna Marta`,
		`Bērziņš/Bērziņa, Kalniņš/Kalniņa, Ozoliņš/Ozoliņa, Jansons/Jansone, Ozols/Ozola, Liepiņš/Liepiņa,
		Krūmiņš/Krūmiņa, Balodis/Balode, Eglītis/Eglīte, Pētersons/Pētersone, Vītols/Vītola, Kļaviņš/Kļaviņa`},
	"ee": {
		`Andres Jaan Martin Tõnu Rein Margus Kristjan Rasmus Siim Mihkel Priit Taavi`,
		`Kadri Kristiina Triin Liis Maarja Kertu Mari Anu Piret Katrin Eliisa Helen`,
		`Tamm, Saar, Sepp, Mägi, Kask, Kukk, Rebane, Ilves, Pärn, Koppel, Lepik, Kuusk, Karu, Lill, Oja, Luik`},
	"tr": {
		`Mehmet Mustafa Ahmet Ali Hüseyin Hasan İbrahim Murat Emre Burak Serkan Can Cem Kerem Onur Oğuz Yusuf Ömer Barış
		Tolga Volkan Deniz Eren Arda`,
		`Ayşe Fatma Emine Hatice Zeynep Elif Merve Özlem Esra Büşra Gizem Selin Ebru Derya Aslı Seda Ceren Pınar Cansu
		Ece Dilara Nazlı`,
		`Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Yıldırım, Öztürk, Aydın, Özdemir, Arslan, Doğan, Kılıç, Aslan,
		Çetin, Kara, Koç, Kurt, Özkan, Şimşek, Polat, Özer, Erdoğan, Güneş, Aksoy, Tekin, Bulut, Korkmaz, Güler,
		Karaca, Ünal, Acar, Aktaş, Çakır`},
	"ar": {
		`Mohamed Ahmed Mahmoud Omar Ali Khaled Hassan Youssef Ibrahim Mustafa Abdullah Tariq Karim Rami Sami Faisal
		Hamza Ziad Nasser Walid Fahad Saeed Majid Bilal Amr Hani Adel`,
		`Fatima Aisha Mariam Nour Layla Sara Huda Rania Dina Yasmin Hana Salma Lina Reem Noura Amal Dalia Mona Rana
		Zainab Farah Ghada Lamia`,
		`Al-Mansouri, Al-Hashimi, Al-Farsi, Haddad, Khalil, Nasser, Hassan, Ibrahim, El-Sayed, Abdel-Rahman, Mahmoud,
		Saleh, Abboud, Khoury, Saad, Aziz, Darwish, Al-Qahtani, Al-Otaibi, Al-Harbi, Al-Zahrani, Al-Shamsi, Benali,
		Bennani, El Amrani, Alaoui, Tazi, Ben Salah, Trabelsi, Mansour, Fahmy, Soliman, Hamdan, Qasim, Yousef,
		Shaheen, Barakat, Awad`},
	"he": {
		`David Yosef Moshe Daniel Avi Yoni Eitan Noam Omer Itai Amit Ariel Guy Tal Roi Yuval Oren Ido Lior Nadav Ronen
		Shai Uri Gil`,
		`Noa Tamar Maya Shira Yael Michal Adi Liat Orly Hila Keren Efrat Sarit Dana Neta Roni Inbal Rachel Avital Galit`,
		`Cohen, Levi, Mizrahi, Peretz, Biton, Dahan, Avraham, Friedman, Azoulay, Malka, Katz, Amar, Ohana, Shapiro,
		Goldberg, Ben-David, Rosenberg, Segal, Weiss, Levy, Hadad, Golan, Barak, Ashkenazi, Sasson, Navon, Shalom,
		Harel, Kaplan`},
	"in": {
		`Rahul Amit Rajesh Suresh Vikram Arjun Rohan Anil Sanjay Pradeep Karthik Vijay Aditya Nikhil Siddharth Ravi
		Manish Deepak Ankit Abhishek Sandeep Prakash Harish Gaurav Varun Akash Venkatesh Srinivas Rakesh Naveen`,
		`Priya Anjali Neha Pooja Divya Sneha Kavya Deepika Ananya Shreya Swati Meera Lakshmi Aishwarya Nisha Ritu Sunita
		Kavitha Radhika Shruti Aarti Pallavi Preeti Isha Anusha Sowmya Rekha Jyoti`,
		`Sharma, Verma, Gupta, Singh, Kumar, Patel, Shah, Mehta, Iyer, Nair, Reddy, Rao, Menon, Pillai, Joshi,
		Kulkarni, Deshpande, Chatterjee, Banerjee, Mukherjee, Das, Bose, Ghosh, Agarwal, Jain, Malhotra, Kapoor, Chopra,
		Bhat, Krishnan, Subramanian, Naidu, Pandey, Mishra, Tiwari, Yadav, Saxena, Srivastava, Chauhan, Thakur,
		Shetty, Hegde, Gowda, Varghese`},
	"pk": {
		`Muhammad Ahmed Ali Hassan Usman Bilal Imran Faisal Kamran Asif Tariq Zubair Hamza Saad Fahad Rizwan Adnan
		Shahid Arif Rafiq Tanvir Shakil Nazmul Mahmud Sajid`,
		`Ayesha Fatima Sana Hina Maryam Zainab Amna Sadia Nadia Rabia Saima Mahnoor Farah Nusrat Sharmin Taslima Farzana
		Nasrin Rumana Shabnam`,
		`Khan, Ahmed, Ali, Hussain, Malik, Qureshi, Chaudhry, Butt, Sheikh, Raza, Siddiqui, Iqbal, Aslam, Akhtar, Mirza,
		Javed, Abbasi, Rana, Rehman, Hossain, Rahman, Islam, Uddin, Chowdhury, Haque, Sarkar, Karim, Alam, Bhuiyan,
		Talukder`},
	"ja": {
		`Hiroshi Takashi Kenji Daisuke Takuya Yuki Kazuki Shota Ryota Naoki Satoshi Yusuke Kenta Tomohiro Masato Haruto
		Sota Ren Akira Kei Takeshi Koji Makoto Yuta`,
		`Yuko Akiko Keiko Tomoko Yumi Ayumi Mai Haruka Misaki Yui Sakura Aoi Nanami Kaori Naomi Megumi Rie Saki Emi Yoko
		Mika Asuka Rina Eri`,
		`Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato, Yoshida, Yamada, Sasaki,
		Yamaguchi, Matsumoto, Inoue, Kimura, Hayashi, Shimizu, Yamazaki, Mori, Abe, Ikeda, Hashimoto, Yamashita,
		Ishikawa, Nakajima, Maeda, Fujita, Ogawa, Goto, Okada, Hasegawa, Murakami, Kondo, Ishii, Saito, Sakamoto, Endo,
		Aoki, Fujii, Nishimura, Fukuda, Ota, Miura, Okamoto, Matsuda, Nakagawa`},
	"zh": {
		`Wei Jie Hao Lei Jun Tao Ming Qiang Yang Bin Peng Chao Gang Hui Feng Jian Long Bo Kai Yong Zhiwei Haoran Yifan
		Zihan Jiahao Junjie`,
		`Fang Li Na Jing Min Yan Ying Xin Yue Hong Lan Mei Ting Xiaoyan Jiayi Yuxin Shuang Qian Wen Lingling Xiaoli
		Yuqing Mengyao Huimin`,
		`Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He, Gao, Lin, Luo, Zheng,
		Liang, Xie, Song, Tang, Han, Feng, Deng, Cao, Peng, Zeng, Xiao, Tian, Dong, Pan, Yuan, Cai, Jiang, Yu, Du, Ye,
		Cheng, Wei, Su, Lu, Ding, Shen`},
	// Overseas Chinese (Hong Kong, Singapore, Malaysia): English given names,
	// Cantonese and Hokkien romanizations.
	"cnx": {
		`Kevin Jason Daniel Eric Kenneth Raymond Alan Vincent Derek Melvin Darren Terence Wilson Edmund Calvin Marcus
		Benjamin Ivan Justin Gary`,
		`Jasmine Rachel Sharon Michelle Grace Karen Joanne Cheryl Vivian Stephanie Winnie Cindy Fiona Irene Jacqueline
		Eunice Priscilla Natalie Carmen Samantha`,
		`Chan, Wong, Cheung, Lau, Leung, Lee, Ho, Ng, Lam, Tang, Yip, Tsang, Chow, Kwok, Lai, Cheng, Fung, Yeung, Mak, Tse,
		Tan, Lim, Ong, Goh, Chua, Koh, Teo, Ang, Yeo, Tay, Low, Toh, Sim, Chong, Chia, Foo, Loh, Yap`},
	"ko": {
		`Min-jun Seo-jun Ji-hoon Hyun-woo Jun-ho Sung-min Dong-hyun Jae-won Young-ho Sang-woo Joon-young Tae-yang
		Jin-woo Woo-jin Kyung-soo Seung-hyun`,
		`Ji-yeon Seo-yeon Min-ji Soo-jin Hye-jin Eun-ji Ji-woo Yu-na Ha-eun Su-bin Yeon-woo Da-eun Seo-hyun Mi-kyung
		Ji-eun Eun-young`,
		`Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Han, Oh, Seo, Shin, Kwon, Hwang, Ahn, Song, Yoo, Hong,
		Jeon, Ko, Moon, Yang, Son, Bae, Baek, Heo, Nam`},
	"vn": {
		`Minh Anh Tuan Hung Duc Hoang Long Nam Quang Thanh Huy Khanh Phuc Trung Dung Son Vinh Bao Hieu Thang`,
		`Linh Huong Trang Lan Thao Ngoc Mai Hoa Phuong Thu Ha Van Nhung Quynh Yen Hanh Nga Giang Chi Tam`,
		`Nguyen, Tran, Le, Pham, Hoang, Huynh, Phan, Vu, Vo, Dang, Bui, Do, Ho, Ngo, Duong, Ly, Dinh, Truong, Mai, Lam`},
	"th": {
		`Somchai Somsak Anan Prasert Wichai Suchart Thanawat Kittipong Nattapong Chaiwat Surachai Pongsakorn Teerapat
		Apichai Worawut Sakda Krit Phuwadol`,
		`Siriporn Suda Malee Ratana Wanida Kanya Pimchanok Nattaya Supaporn Chutima Araya Kannika Patcharee Orawan
		Jiraporn Sasithorn Nicha Ploy`,
		`Saetang, Srisuk, Wongsawat, Chaiyaporn, Rattanakorn, Suksawat, Thongchai, Kaewkanya, Boonmee, Chanthara,
		Sukprasert, Phromma, Jaidee, Siriwat, Intharasuwan, Pongpanich, Meesuk, Charoenkul, Wattanasin, Ruangsri`},
	"id": {
		`Budi Agus Andi Dedi Hendra Rudi Eko Joko Bambang Arif Rizky Fajar Dimas Ahmad Muhammad Hafiz Faiz Irfan Adi
		Wahyu Yusuf Aziz Haziq Amir`,
		`Siti Dewi Sri Rina Fitri Indah Putri Ayu Wulan Ratna Nurul Aisyah Farah Nadia Intan Lestari Kartika Mega Sari
		Nur`,
		`Santoso, Wijaya, Saputra, Hidayat, Kusuma, Pratama, Setiawan, Gunawan, Susanto, Halim, Nugroho, Wibowo, Hakim,
		Rahman, Ibrahim, Ismail, Abdullah, Hassan, Razak, Othman, Yusof, Salleh, Kamal, Harun, Lubis, Siregar`},
	"ph": {
		`Jose Juan Mark John Michael Christian Paolo Carlo Miguel Rafael Angelo Joshua Jerome Kevin Ronald Dennis Arnel
		Rodel Jericho Francis`,
		`Maria Kristine Angelica Jasmine Camille Patricia Joy Mary Rose Princess Nicole Andrea Katrina Bea Czarina
		Janine Shiela Rowena Lovely Hazel`,
		`Santos, Reyes, Cruz, Bautista, Garcia, Mendoza, Ocampo, dela Cruz, Villanueva, Ramos, Aquino, Castillo,
		Rivera, Navarro, Fernandez, Torres, Gonzales, Flores, Mercado, Tolentino, Domingo, Pascual, Soriano, Manalo,
		Aguilar, Lim, Tan, Dizon, Salazar, Valdez`},
	"ng": {
		`Chinedu Emeka Oluwaseun Adebayo Tunde Babajide Chukwuma Ifeanyi Olumide Segun Kwame Kofi Kwabena Yaw Ibrahim
		Musa Abdullahi Uche Obinna Femi Kelechi Tobi Nnamdi Kunle Yusuf`,
		`Ngozi Chiamaka Adaeze Funmilayo Folake Yetunde Aisha Amaka Chioma Ifeoma Blessing Grace Abena Akosua Ama Efua
		Zainab Temitope Bisola Nneka Omolara Titilayo`,
		`Okafor, Okonkwo, Adeyemi, Ogunleye, Balogun, Eze, Nwosu, Adebayo, Okeke, Obi, Olawale, Bello, Ibrahim,
		Abubakar, Mohammed, Danjuma, Mensah, Asante, Owusu, Boateng, Osei, Agyeman, Appiah, Addo, Adjei, Chukwu,
		Uzoma, Akinola`},
	"ke": {
		`John Peter David Joseph Samuel Brian Kevin Dennis Collins Emmanuel Eric Moses Baraka Juma Bakari Abebe Dawit
		Tesfaye Yonas Mugisha`,
		`Mary Grace Faith Mercy Esther Ann Joyce Lucy Wanjiru Akinyi Achieng Atieno Njeri Wambui Amani Neema Rehema
		Zawadi Selam Hiwot Aster`,
		`Kamau, Mwangi, Otieno, Ochieng, Odhiambo, Kariuki, Njoroge, Kiprop, Cheruiyot, Mutua, Kimani, Waweru, Omondi,
		Onyango, Wafula, Barasa, Mwakyusa, Mollel, Massawe, Okello, Tumusiime, Habimana, Uwimana, Bekele, Haile,
		Girma, Alemu`},
	"za": {
		`Sipho Thabo Themba Bongani Sibusiso Mandla Lwazi Kagiso Tshepo Mpho Lungile Sizwe Andile Siyabonga`,
		`Nomvula Thandiwe Zanele Lerato Palesa Nandi Ayanda Naledi Busisiwe Nokuthula Precious Lindiwe Refilwe Khanyisile`,
		`Nkosi, Dlamini, Ndlovu, Khumalo, Mokoena, Mahlangu, Zulu, Mthembu, Mabaso, Sithole, Ngcobo, Buthelezi, Molefe,
		Mofokeng, Radebe, Tshabalala, Maseko, Shabalala`},
	"af": {
		`Pieter Johan Willem Hendrik Jacques Francois Gerhard Stefan Christo Ruan Jaco Riaan Werner Dewald`,
		`Annelie Marike Elna Liezel Anri Elmarie Carien Ilse Mariska Lize Sunette Charlize Nicolette Ronel`,
		`van der Merwe, Botha, Pretorius, Venter, Joubert, Steyn, du Plessis, Nel, Coetzee, Fourie, Kruger, Smit,
		van Wyk, Swanepoel, Erasmus, Viljoen, du Toit, le Roux, Louw, Marais, Potgieter, Oosthuizen`},
	// Francophone West and Central Africa.
	"fa": {
		`Mamadou Moussa Ibrahima Abdoulaye Ousmane Cheikh Amadou Souleymane Boubacar Seydou Jean-Paul Serge Patrice
		Didier Yves Eric Alain Hervé Arnaud Koffi`,
		`Aminata Fatou Mariama Awa Aïssatou Khady Ndeye Adama Kadiatou Rokia Mariam Clarisse Mireille Solange Chantal
		Brigitte Sandrine Estelle Nadège Josiane`,
		`Diallo, Traoré, Koné, Diop, Ndiaye, Sow, Cissé, Camara, Touré, Fall, Gueye, Kouassi, Konaté, Ouattara,
		Coulibaly, Bamba, Sangaré, Kaboré, Ouédraogo, Sawadogo, Mbarga, Nkoulou, Fotso, Ngono, Mballa, Kamga`},
}

// nameMixes says whose names the people of a country (or of a subdivision,
// keyed "CC-SUB") carry: naming regions with weights. Countries not listed
// take the region of their primary language (nameByLanguage), else "en".
var nameMixes = map[string]string{
	"US": "en:70 es:9 in:6 zh:4 ko:1 vn:1 ph:1 de:2 it:2 fr:1 pl:1 ru:1 ar:1",
	"GB": "en:82 in:5 pk:3 pl:3 fr:2 it:2 es:1 ng:2",
	"IE": "en:92 pl:4 in:2 fr:2",
	"CA": "en:68 fr:10 zh:7 in:8 it:2 pk:2 ko:1 ph:2", "CA-QC": "fr:85 en:9 ar:6",
	"AU": "en:76 zh:7 in:6 it:3 el:2 vn:3 de:2 ko:1",
	"NZ": "en:86 in:5 zh:5 ph:2 ko:2",
	"DE": "de:86 tr:6 pl:3 it:2 ru:2 el:1", "AT": "de:88 yu:4 tr:4 hu:2 cs:2",
	"CH": "de:84 it:6 fr:5 pt:2 yu:3", "CH-GE": "fr:86 it:4 pt:4 es:2 de:4", "CH-VD": "fr:88 pt:4 it:4 de:4",
	"CH-NE": "fr:90 pt:4 it:6", "CH-JU": "fr:94 de:6", "CH-FR": "fr:70 de:30", "CH-VS": "fr:70 de:30", "CH-TI": "it:92 de:8",
	"FR": "fr:88 ar:7 pt:3 es:1 it:1", "LU": "fr:45 de:25 pt:20 it:10", "MC": "fr:70 it:30",
	"BE": "nl:88 fr:4 ar:4 it:2 tr:2", "BE-BRU": "fr:62 nl:18 ar:14 it:3 es:3",
	"BE-WBR": "fr:90 nl:4 ar:3 it:3", "BE-WHT": "fr:88 it:6 ar:6", "BE-WLG": "fr:88 it:6 ar:6", "BE-WLX": "fr:95 nl:5", "BE-WNA": "fr:95 ar:5",
	"NL": "nl:88 tr:4 ar:4 de:2 in:2",
	"ES": "es:93 ar:3 ro:2 it:2", "PT": "pt:95 es:3 fr:2", "IT": "it:96 ro:2 ar:2",
	"BR": "pt:92 it:4 ja:2 de:2", "AR": "es:90 it:8 de:2", "UY": "es:92 it:8",
	"IN": "in:100", "PK": "pk:100", "BD": "pk:100", "LK": "in:100", "NP": "in:100", "MU": "in:50 fr:35 en:15",
	"JP": "ja:100", "CN": "zh:100", "TW": "zh:100", "HK": "cnx:92 en:8", "MO": "cnx:100",
	"SG": "cnx:66 id:14 in:14 en:6", "MY": "id:58 cnx:28 in:14", "BN": "id:80 cnx:20",
	"KR": "ko:100", "VN": "vn:100", "TH": "th:100", "ID": "id:100", "PH": "ph:100",
	"SE": "sv:88 fi:3 ar:4 yu:2 pl:3", "DK": "da:92 de:2 ar:3 pl:3", "NO": "no:90 sv:3 pl:4 ar:3", "IS": "no:100",
	"FI": "fi:92 sv:6 ru:2",
	"PL": "pl:97 ru:3", "CZ": "cs:98 ru:2", "SK": "cs:94 hu:6", "HU": "hu:100", "RO": "ro:98 hu:2", "MD": "ro:80 ru:20",
	"HR": "yu:100", "RS": "yu:100", "SI": "yu:100", "BA": "yu:100", "ME": "yu:100", "MK": "yu:100", "AL": "yu:100",
	"BG": "ru:100", "GR": "el:100", "CY": "el:90 en:10",
	"RU": "ru:100", "UA": "ru:100", "BY": "ru:100", "KZ": "ru:100", "GE": "ru:100", "AM": "ru:100", "AZ": "ru:100",
	"UZ": "ru:100", "KG": "ru:100", "TM": "ru:100", "TJ": "ru:100", "MN": "ru:100",
	"LT": "lt:100", "LV": "lv:100", "EE": "ee:85 ru:15",
	"TR": "tr:100", "IL": "he:85 ru:10 en:5",
	"AE": "ar:50 in:30 pk:10 en:7 ph:3", "QA": "ar:70 in:20 pk:5 ph:5", "SA": "ar:85 in:8 pk:4 ph:3",
	"KW": "ar:80 in:14 ph:6", "BH": "ar:75 in:20 ph:5", "OM": "ar:80 in:15 pk:5",
	"NG": "ng:100", "GH": "ng:100", "SL": "ng:100", "LR": "ng:100", "GM": "ng:100",
	"KE": "ke:100", "TZ": "ke:100", "UG": "ke:100", "RW": "ke:100", "ET": "ke:100", "ZM": "ke:100", "ZW": "ke:100",
	"MW": "ke:100", "BW": "ke:100", "NA": "af:30 ke:70", "SS": "ke:100", "SO": "ke:100", "ER": "ke:100",
	"ZA": "en:38 za:42 af:12 in:8", "LS": "za:100", "SZ": "za:100",
	"IR": "ar:100", "AF": "pk:100", "MM": "th:100", "KH": "th:100", "LA": "th:100", "BT": "in:100", "MV": "in:100",
	"TL": "pt:100", "DZ": "ar:100", "HT": "fa:100",
}

// nameByLanguage maps a primary language to its naming region for
// countries nameMixes does not list.
var nameByLanguage = map[string]string{
	"en": "en", "de": "de", "fr": "fa", "es": "es", "pt": "pt", "it": "it", "nl": "nl", "ar": "ar", "ru": "ru",
	"ca": "es", "ms": "id", "zh": "zh", "sq": "yu", "bs": "yu", "sr": "yu", "mk": "yu",
}

// europeanFrench are the French-speaking countries outside Africa.
var europeanFrench = map[string]bool{"FR": true, "BE": true, "LU": true, "MC": true, "CH": true}
