package demo

import "strings"

// Domain decorations: used only when a naming cell runs out of plain
// combinations, the way real companies settle for getacme.com or
// acmehq.com when acme.com is taken.
var (
	decoPrefixes = []string{"get", "try", "hey", "join", "meet", "hello"}
	decoSuffixes = []string{"hq", "app", "inc", "corp", "group", "global", "online", "team"}
)

// genericNameWords end names of any industry ("Summit Partners").
var genericNameWords = []string{"Partners", "Associates", "Holdings", "Ventures", "Solutions", "Systems", "Industries",
	"International", "Enterprises", "Services", "Technologies", "Labs", "Works", "Collective", "Company"}

// invOnsets and invEndings make invented brand words ("Korvix",
// "Zenotrix"); see inventedWords.
var (
	invOnsets = strings.Fields(`zen kor vel lum nov tri quan syn ver cal dor fen gal hal jov kal lev mar nex ox pax rav sol
		tav ul vex wen xan yor zar bel cor dax el fyn hel ion jun kin lux mor nor orb pra qui ren sen ter uni val wex zyn
		alt arc ast aur bri cel cyr del eon fal fil gra hex iso kyr lin mag mer nav nim oct pel pol pyr rho sar sil tel
		tor ven vir vol xen zel zor bex cad dyn fer gyr ilo jax kel lor myr nol ort pex quin sym tal tyn umb vyn wyn yel
		ab ad ak am an ar av az bal bor bru cir dan dru ev fin flo gen hol ib ik in ir jal kai lam lid mal mon nad nir
		od op os pan pir ral rom ruv sab sev sor tam tir tov ur vad vas vor yar zal zim zol`)
	invEndings = strings.Fields(`ix ex ax ora ara ium ova ica ify eon ado ent era ia us yx on is ent iq ova ano elo
		tix lia vex ra nix lo dia ta vo ris tra dex lux ron rus vant lyn sys nova mo sta ti qa zo tic ly da rix`)
)

// surnames, international, for "Hartley & Moore" style names.
var surnames = strings.Fields(`Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Martin
	Jackson Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green Adams Baker Nelson
	Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins Stewart Morris Rogers Reed Cook Morgan
	Bell Murphy Bailey Cooper Richardson Cox Howard Ward Peterson Gray James Watson Brooks Kelly Sanders Price Bennett
	Wood Barnes Ross Henderson Coleman Jenkins Perry Powell Long Patterson Hughes Flores Washington Butler Simmons Foster
	Bryant Alexander Russell Griffin Hayes Myers Ford Hamilton Graham Sullivan Wallace Woods Cole West Jordan Owens
	Reynolds Fisher Ellis Harrison Gibson McDonald Marshall Wells Simpson Stevens Tucker Porter Hunter Hicks Crawford
	Henry Boyd Mason Kennedy Warren Dixon Burns Gordon Shaw Holmes Rice Hunt Black Daniels Palmer Mills Grant Knight
	Ferguson Rose Stone Hawkins Dunn Perkins Hudson Spencer Gardner Stephens Payne Pierce Berry Matthews Arnold Wagner
	Willis Ray Watkins Olson Carroll Duncan Snyder Hart Cunningham Bradley Lane Andrews Ruiz Harper Fox Riley Armstrong
	Carpenter Weaver Greene Lawrence Elliott Chavez Sims Austin Peters Kelley Franklin Lawson Fields Ryan Schmidt Carr
	Castillo Wheeler Chapman Oliver Montgomery Richards Williamson Johnston Banks Meyer Bishop McCoy Howell Morrison
	Hansen Harvey Little Burton Stanley George Jacobs Reid Fuller Lynch Dean Gilbert Garrett Romero Welch Larson Frazier
	Burke Hanson Day Mendoza Moreno Bowman Medina Fowler Brewer Hoffman Carlson Silva Pearson Holland Douglas Fleming
	Jensen Vargas Byrd Davidson Hopkins May Terry Herrera Wade Soto Walters Curtis Neal Caldwell Lowe Jennings Barnett
	Graves Jimenez Horton Shelton Barrett Obrien Castro Sutton Gregory McKinney Lucas Miles Craig Rodriquez Chambers Holt
	Lambert Fletcher Watts Bates Hale Rhodes Pena Beck Newman Haynes McDaniel Mendez Bush Vaughn Parks Dawson Santiago
	Norris Hardy Love Steele Curry Powers Schultz Barker Guzman Page Munoz Ball Keller Chandler Weber Leonard Walsh Lyons
	Ramsey Wolfe Schneider Mullins Benson Sharp Bowen Daniel Barber Cummings Hines Baldwin Griffith Valdez Hubbard
	Salazar Reeves Warner Stevenson Burgess Santos Tate Cross Garner Mann Mack Moss Thornton Dennis McGee Farmer Delgado
	Aguilar Vega Glover Manning Cohen Harmon Rodgers Robbins Newton Todd Blair Higgins Ingram Reese Cannon Strickland
	Townsend Potter Goodwin Walton Rowe Hampton Ortega Patton Swanson Joseph Francis Goodman Maldonado Yates Becker
	Erickson Hodges Rios Conner Adkins Webster Norman Malone Hammond Flowers Cobb Moody Quinn Blake Maxwell Pope Floyd
	Osborne Paul McCarthy Guerrero Lindsey Estrada Sandoval Gibbs Tyler Gross Fitzgerald Stokes Doyle Sherman Saunders
	Wise Colon Gill Alvarado Greer Padilla Simon Waters Nunez Ballard Schwartz McBride Houston Christensen Klein Pratt
	Briggs Parsons McLaughlin Zimmerman French Buchanan Moran Copeland Roy Pittman Brady McCormick Holloway Brock Poole
	Frank Logan Owen Bass Marsh Drake Wong Jefferson Park Morton Abbott Sparks Patrick Norton Huff Clayton Massey Lloyd
	Figueroa Carson Bowers Roberson Barton Tran Lamb Harrington Casey Boone Cortez Clarke Mathis Singleton Wilkins Cain
	Bryan Underwood Hogan McKenzie Collier Luna Phelps McGuire Allison Bridges Wilkerson Nash Summers Atkins
	Müller Schmitt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Schröder Neumann
	Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Werner Krause Lehmann Köhler Maier Herrmann König Walter
	Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Vogel Friedrich Keller Günther Frank Berger Winkler
	Roth Beck Lorenz Baumann Franke Albrecht Ludwig Böhm Winter Kraus Martens Schumacher Krämer Vogt Stein Jäger Otto
	Sommer Groß Seidel Heinrich Brandt Haas Schreiber Graf Dietrich Ziegler Kuhn Pohl Engel Horn Busch Bergmann Thomas
	Dubois Durand Lefebvre Leroy Moreau Laurent Simon Michel Lefevre Garnier Faure Rousseau Blanc Guerin Muller Henry
	Roussel Nicolas Perrin Morin Mathieu Clement Gauthier Dumont Lopez Fontaine Chevalier Robin Masson Sanchez Gerard
	Nguyen Boyer Denis Lemaire Duval Joly Gautier Roger Roche Roy Noel Meyer Lucas Meunier Jean Perez Marchand Dufour
	Blanchard Marie Barbier Brun Dumas Brunet Schmitt Leroux Colin Fernandez Pierre Renard Arnaud Rolland Caron Aubert
	Giraud Leclerc Vidal Bourgeois Renaud Lemoine Picard Gaillard Philippe Leclercq Lacroix Fabre Dupuis Olivier
	Garcia Rodriguez Gonzalez Fernandez Lopez Martinez Sanchez Perez Gomez Martin Jimenez Ruiz Hernandez Diaz Moreno
	Alvarez Romero Alonso Gutierrez Navarro Torres Dominguez Vazquez Ramos Gil Ramirez Serrano Blanco Molina Morales
	Suarez Ortega Delgado Castro Ortiz Rubio Marin Sanz Iglesias Nunez Medina Garrido Cortes Castillo Santos Lozano
	Guerrero Cano Prieto Mendez Cruz Calvo Gallego Vidal Leon Marquez Herrera Pena Flores Cabrera Campos Vega Fuentes
	Carrasco Diez Caballero Reyes Nieto Aguilar Pascual Santana Herrero Lorenzo Montero Hidalgo Gimenez Ibanez Ferrer
	Duran Santiago Benitez Mora Vicente Vargas Arias Carmona Crespo Roman Pastor Soto Saez Velasco Moya Soler Parra
	Esteban Bravo Gallardo Rojas Oliveira Pereira Costa Ferreira Almeida Ribeiro Carvalho Gomes Martins Rocha Sousa
	Lima Barbosa Cardoso Teixeira Mendes Nascimento Araujo Correia Pinto Moura Cavalcanti Monteiro Freitas Vieira
	Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti DeLuca Mancini Costa
	Giordano Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani Rinaldi Caruso Ferrara Galli Martini Leone
	Longo Gentile Martinelli Vitale Lombardo Serra Coppola DeSantis DAngelo Marchetti Parisi Villa Conte Ferraro
	Ferri Fabbri Bianco Marini Grasso Valentini Messina Sala DeAngelis Gatti Pellegrini Palumbo Sanna Farina Rizzi
	DeJong Jansen DeVries VandenBerg VanDijk Bakker Janssen Visser Smit Meijer DeBoer Mulder DeGroot Bos Vos Peters
	Hendriks VanLeeuwen Dekker Brouwer DeWit Dijkstra Smits DeGraaf VanderMeer Kok Jacobs DeHaan Vermeulen VandenHeuvel
	Johansson Andersson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Pettersson Jonsson
	Lindberg Lindqvist Lindgren Berg Axelsson Bergstrom Lundberg Lundgren Mattsson Berglund Fredriksson Sandberg
	Henriksen Nielsen Jensen Pedersen Andersen Christensen Larsen Sorensen Rasmussen Jorgensen Madsen Kristensen
	Olsen Thomsen Poulsen Johansen Knudsen Mortensen Moller Virtanen Korhonen Nieminen Makinen Hamalainen Laine Heikkinen
	Nowak Kowalski Wisniewski Wojcik Kowalczyk Kaminski Lewandowski Zielinski Szymanski Wozniak Dabrowski Kozlowski
	Jankowski Mazur Kwiatkowski Krawczyk Piotrowski Grabowski Nowakowski Pawlowski Michalski Novak Svoboda Dvorak
	Cerny Prochazka Kucera Horvath Nagy Kovacs Szabo Toth Popescu Ionescu Popa Petrov Ivanov Smirnov Volkov Sokolov
	Kuznetsov Popov Lebedev Kozlov Novikov Morozov Pavlov Fedorov Shevchenko Kovalenko Bondarenko Tkachenko
	Sharma Patel Singh Kumar Gupta Mehta Shah Joshi Reddy Nair Iyer Rao Desai Agarwal Chopra Malhotra Kapoor Bhat
	Chatterjee Banerjee Mukherjee Das Bose Sen Pillai Menon Krishnan Verma Mishra Pandey Saxena Bansal Jain Khanna
	Arora Sethi Trivedi Kulkarni Deshpande Naidu Chawla Ahuja Bhatia Goel Sinha Tiwari Dubey
	Tanaka Suzuki Takahashi Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki Yamaguchi Matsumoto Inoue
	Kimura Hayashi Shimizu Yamazaki Mori Abe Ikeda Hashimoto Ishikawa Ogawa Fujita Okada Goto Hasegawa Murakami
	Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Tang Feng
	Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin Seo Kwon Hwang
	Murphy Kelly OSullivan Walsh ONeill Byrne Ryan OConnor OBrien McCarthy Doyle Kennedy Lynch Murray Quinn Moore
	McLoughlin Carroll Connolly Daly Connell Gallagher Doherty Dunne Brennan Burke Collins Campbell Stewart MacDonald
	MacLeod Robertson Thomson Ross Paterson Fraser Morrison Cameron Sinclair Munro Buchanan Drummond Kerr Lennox
	Cohen Levy Friedman Goldberg Katz Shapiro Rosen Klein Weiss Adler Kaplan Schwartz Stern Mizrahi Peretz Avraham
	Haddad Khoury Nasser Mansour Saleh Hassan Hussein Rahman Aziz Karim Farouk Hamdan Khalil Qureshi Siddiqui
	Yilmaz Kaya Demir Sahin Celik Yildiz Yildirim Ozturk Aydin Ozdemir Arslan Dogan Kilic Aslan
	Papadopoulos Pappas Georgiou Nikolaou Christodoulou Konstantinou Dimitriou Ioannou Vlachos Economou
	Okafor Okonkwo Adeyemi Mensah Boateng Mwangi Otieno Kamau Ndlovu Dlamini Naidoo Botha Pretorius Nkosi`)

// brandWords are plain words brands are made of ("Blue Peak").
var brandWords = strings.Fields(`Acorn Alder Alpine Amber Anchor Apex Arbor Arrow Aspen Atlas Aurora Autumn Azure Badger
	Basalt Bay Beacon Bear Birch Bison Blue Bluff Bold Boulder Bramble Brave Bridge Bright Brook Canyon Cardinal Cascade
	Cedar Centennial Chestnut Cinder Citadel Clear Cliff Clover Coast Cobalt Comet Compass Copper Coral Cove Crane Crest
	Crimson Crown Crystal Cypress Dawn Delta Desert Dune Eagle East Echo Eclipse Elm Ember Emerald Evergreen Falcon Fern
	Field Fir Firefly Flint Forest Fox Frontier Galaxy Garnet Gateway Glacier Glen Gold Granite Graphite Green Grove Gull
	Harbor Haven Hawk Hazel Heath Heron Hickory Highland Hill Hollow Horizon Indigo Iron Island Ivy Jade Jasper Juniper
	Keel Kestrel Keystone Lake Lantern Larch Laurel Ledge Legacy Liberty Lighthouse Lime Linden Lion Lotus Lunar Lynx
	Magnolia Mango Maple Marble Marigold Marsh Meadow Meridian Mesa Midland Mill Mint Mission Monarch Moon Moss Mountain
	North Nova Oak Oasis Ocean Olive Onyx Opal Orchard Osprey Otter Pacific Palm Panther Paragon Peak Pearl Pebble Pelican
	Pepper Pilot Pine Pinnacle Pioneer Plaza Polar Poplar Prairie Prism Quarry Quartz Quest Rain Range Raven Redwood Reef
	Ridge River Robin Rock Rose Ruby Sable Saffron Sage Salt Sapphire Scarlet Sentinel Sequoia Shore Sierra Silver Sky
	Slate Solstice Sparrow Spring Spruce Star Sterling Stone Storm Summit Sun Swift Sycamore Tango Teal Tern Thistle
	Thunder Tide Timber Topaz Torch Tower Trail True Tundra Twin Union Valley Vanguard Velvet Verde Vertex Vista Walnut
	Wave West Willow Wind Winter Wolf Wren Yarrow Zenith Zephyr Anvil Bastion Beam Blossom Bolt Brightwater Cairn Castle
	Cloud Condor Current Cyan Drift Elk Fable Feather Flare Fjord Forge Gale Gem Halo Harvest Helix Hive Hyper Jet Kite
	Lark Lumen Magnet Mantis Mercury Mirage Nimbus Nordic Orbit Origin Outpost Paddle Pantheon Parallel Pixel Plume Pulse
	Radiant Rapid Relay Ripple Rocket Saga Signal Sol Spark Sphere Spire Sprout Stellar Strata Surge Tandem Terra Titan
	Trek Triad Trident Tulip Vector Vertical Vivid Voyage Wander Wildflower Yonder`)

// genericTerms are business words any company uses; they are the noise
// that keeps texts from being pure niche vocabulary.
var genericTerms = splitList(`quality, reliable service, customer satisfaction, innovation, expertise, experience,
	efficiency, growth, sustainability, transparency, partnership, excellence, value for money, results, performance,
	flexibility, responsiveness, integrity, commitment, best practices, peace of mind, cost savings, faster turnaround,
	long-term relationships, personal attention, competitive pricing, continuous improvement, attention to detail,
	proven processes, dedicated support, local knowledge, global reach, scalability, simplicity, accountability, safety,
	speed, convenience, trust, teamwork, creativity, craftsmanship, reliability, consistency, affordability, clear communication,
	fair pricing, industry knowledge, years of experience, customer focus, tailored solutions, end-to-end service,
	hands-on approach, measurable outcomes, honest advice, quick response, flexible scheduling, nationwide coverage,
	certified team, award-winning service, in-house team, family values, community involvement, environmental responsibility,
	data security, regulatory compliance, diversity, employee wellbeing, ongoing training, modern facilities, great value,
	client satisfaction, customer loyalty, sustainable growth, operational efficiency, digital transformation, risk reduction,
	return on investment, brand reputation, market leadership, strategic partnerships, product quality, service quality,
	on-time delivery, 24/7 availability, multilingual team, free consultation, satisfaction guarantee, referrals,
	five-star reviews, repeat customers, trusted partners, local presence, international experience`)

// adjectives qualify a company or its offer in taglines.
var adjectives = []string{"trusted", "modern", "independent", "award-winning", "family-owned", "fast-growing", "leading",
	"specialist", "full-service", "boutique", "innovative", "established", "certified", "reliable", "data-driven",
	"customer-focused", "experienced", "friendly", "affordable", "premium", "local", "global", "sustainable", "smart"}
